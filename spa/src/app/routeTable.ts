/**
 * The route table of spec section 2, as data. The router (app/AppRoutes.tsx) is built from it.
 */
export type PageKey =
  | 'dashboard'
  | 'companySettings'
  | 'userManagement'
  | 'roleManagement'
  | 'state'
  | 'city'
  | 'region'
  | 'yard'
  | 'paymentTerm'
  | 'paymentMethod'
  | 'driver'
  | 'companyAsset'
  | 'assetType'
  | 'product'
  | 'productCategory'
  | 'productSubCategory'
  | 'customer'
  | 'customerCompanyType'
  | 'customerContactBook'
  | 'supplier'
  | 'terminal'
  | 'templateDesigner'
  | 'email'
  | 'salesOrder'
  | 'salesOrderBoard'
  | 'dispatchCenter'
  | 'tax'
  | 'fee'
  | 'pricingRule'
  | 'buyingPrice'
  | 'todaysOrder'
  | 'dailySummary'
  | 'billParser'
  | 'purchaseOrder'
  | 'invoice'
  | 'priceQuotes'
  | 'deliveryTicket'
  | 'deliveryOrderEntry'
  | 'onboarding'
  | 'googleAuthentication'
  | 'quickbooks'
  | 'forecast'
  | 'routePlan'
  | 'routingSettings'
  | 'pending';

export interface ProtectedRoute {
  /** The path as the spec writes it ({id} parameters, /* for sub-paths). */
  path: string;
  page: PageKey;
  /** False only for /delivery-ticket/{id}. */
  shell: boolean;
  /** Title used by the 'not available yet' notice. */
  title: string;
}

/** A route whose screen is not built yet: the 'not available yet' page (none left today). */
export const pending = (path: string, title: string, shell = true): ProtectedRoute => ({ path, page: 'pending', shell, title });

export const PROTECTED_ROUTES: readonly ProtectedRoute[] = [
  { path: '/dashboard', page: 'dashboard', shell: true, title: 'Dashboard' },
  { path: '/product', page: 'product', shell: true, title: 'Products' },
  { path: '/product-category', page: 'productCategory', shell: true, title: 'Product Categories' },
  { path: '/product-sub-category', page: 'productSubCategory', shell: true, title: 'Product Sub-Categories' },
  { path: '/customer/*', page: 'customer', shell: true, title: 'Customers' },
  { path: '/purchase-order/*', page: 'purchaseOrder', shell: true, title: 'Purchase Orders' },
  { path: '/state', page: 'state', shell: true, title: 'States' },
  { path: '/city', page: 'city', shell: true, title: 'Cities' },
  { path: '/tax/*', page: 'tax', shell: true, title: 'Taxes' },
  { path: '/terminal', page: 'terminal', shell: true, title: 'Terminals' },
  { path: '/template-designer', page: 'templateDesigner', shell: true, title: 'Template Designer' },
  { path: '/supplier/*', page: 'supplier', shell: true, title: 'Suppliers' },
  { path: '/sales-order/*', page: 'salesOrder', shell: true, title: 'Sales Orders' },
  { path: '/invoice/*', page: 'invoice', shell: true, title: 'Invoices' },
  { path: '/email/*', page: 'email', shell: true, title: 'Email' },
  { path: '/sales-order-board', page: 'salesOrderBoard', shell: true, title: 'Sales Order Board' },
  { path: '/delivery-ticket/{id}', page: 'deliveryTicket', shell: false, title: 'Delivery Ticket' },
  { path: '/delivery-order-entry/{id}', page: 'deliveryOrderEntry', shell: true, title: 'Delivery Order Entry' },
  { path: '/pricing-rule/*', page: 'pricingRule', shell: true, title: 'Pricing Rules' },
  { path: '/yard', page: 'yard', shell: true, title: 'Yards' },
  { path: '/region', page: 'region', shell: true, title: 'Regions' },
  { path: '/driver', page: 'driver', shell: true, title: 'Drivers' },
  { path: '/company-asset', page: 'companyAsset', shell: true, title: 'Company Assets' },
  { path: '/asset-type', page: 'assetType', shell: true, title: 'Asset Types' },
  { path: '/fee', page: 'fee', shell: true, title: 'Fees' },
  { path: '/customer-company-type', page: 'customerCompanyType', shell: true, title: 'Customer Company Types' },
  { path: '/customer-contact-book/*', page: 'customerContactBook', shell: true, title: 'Customer Contact Book' },
  { path: '/company-settings/*', page: 'companySettings', shell: true, title: 'Company Settings' },
  { path: '/invoice-parse/*', page: 'billParser', shell: true, title: 'Bill Parser' },
  { path: '/buying-price/*', page: 'buyingPrice', shell: true, title: 'Supplier Buying Prices' },
  { path: '/payment-term', page: 'paymentTerm', shell: true, title: 'Payment Terms' },
  { path: '/payment-method', page: 'paymentMethod', shell: true, title: 'Payment Methods' },
  { path: '/todays-order', page: 'todaysOrder', shell: true, title: "Today's Orders" },
  { path: '/daily-summary', page: 'dailySummary', shell: true, title: 'Daily Summary' },
  { path: '/quickbook-online/*', page: 'quickbooks', shell: true, title: 'QuickBooks Online' },
  { path: '/quickbook/login', page: 'quickbooks', shell: true, title: 'QuickBooks Online' },
  { path: '/google-authentication/*', page: 'googleAuthentication', shell: true, title: 'Google Authentication' },
  { path: '/dispatch-center/*', page: 'dispatchCenter', shell: true, title: 'Dispatch Center' },
  { path: '/onboarding', page: 'onboarding', shell: true, title: 'Onboarding' },
  { path: '/user-management/*', page: 'userManagement', shell: true, title: 'User Management' },
  { path: '/role-management/*', page: 'roleManagement', shell: true, title: 'Roles & Permissions' },
  { path: '/price-quotes/*', page: 'priceQuotes', shell: true, title: 'Price Quotes' },
  // Beyond the spec's table: keep-full forecasting (issue 26).
  { path: '/forecast/*', page: 'forecast', shell: true, title: 'Keep-Full Forecast' },
];

/**
 * Screens the spec does not list, under the sub-paths of a spec route (matched before it): the
 * route planner lives in the dispatch center (/dispatch-center/*), its settings in the company
 * settings (/company-settings/*). The menu keeps the spec's entries; these pages are reached from
 * their parent page.
 */
export const SUB_ROUTES: readonly ProtectedRoute[] = [
  { path: '/dispatch-center/plan', page: 'routePlan', shell: true, title: 'Plan the day' },
  { path: '/company-settings/routing', page: 'routingSettings', shell: true, title: 'Route planning settings' },
];

/** Public routes: the sign-in page's catch-all, sign-up, password reset and the info pages. */
export const PUBLIC_ROUTES = ['/*', '/signup', '/reset-password/*', '/about-us', '/eula', '/privacy-policy'] as const;

/** Converts the spec's {id} to the router's :id. */
export function toRouterPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

export const NOT_FOUND_TEXT = {
  title: 'Oops! page not found',
  code: '404',
  body: "we couldn't find what you are looking for. Please try again with different url",
  button: 'Refresh Page',
} as const;
