/**
 * The main navigation of spec section 2, as data. Groups without sub-pages navigate directly to
 * /{id} (Dashboard → /dashboard, Email → /email).
 */
export interface MenuSubItem {
  path: string;
  title: string;
  description?: string;
  beta?: boolean;
}

export type MenuIconKey =
  | 'dashboard'
  | 'sales'
  | 'purchase'
  | 'operations'
  | 'products'
  | 'pricing'
  | 'email'
  | 'integrations'
  | 'users'
  | 'settings';

export interface MenuItem {
  id: string;
  title: string;
  /** Short label under the icon on the rail and the bottom bar. */
  buttonLabel?: string;
  color: string;
  icon: MenuIconKey;
  subItems: MenuSubItem[];
}

export const MENU: readonly MenuItem[] = [
  { id: 'dashboard', title: 'Dashboard', buttonLabel: 'Dashboard', color: '#1565c0', icon: 'dashboard', subItems: [] },
  {
    id: 'sales',
    title: 'Sales (AR)',
    buttonLabel: 'Sales',
    color: '#2e7d32',
    icon: 'sales',
    subItems: [
      { path: '/sales-order', title: 'Sales Orders', description: 'Manage customer orders' },
      { path: '/invoice', title: 'Invoices', description: 'Create and track invoices' },
      { path: '/customer', title: 'Customers', description: 'Customer accounts, ship-tos and assets' },
      { path: '/customer-company-type', title: 'Customer Company Types', description: 'Group customers by type' },
      { path: '/sales-order-board', title: 'Sales Order Board', description: 'Visual order tracking', beta: true },
    ],
  },
  {
    id: 'purchase',
    title: 'Purchase (AP)',
    buttonLabel: 'Purchase',
    color: '#6a1b9a',
    icon: 'purchase',
    subItems: [
      { path: '/purchase-order', title: 'Purchase Orders', description: 'Orders placed with suppliers' },
      { path: '/buying-price', title: 'Supplier Buying Prices', description: 'What suppliers charge, by date' },
      { path: '/price-quotes', title: 'Price Quotes', description: 'Email quotes from suppliers' },
      { path: '/supplier', title: 'Suppliers', description: 'Supplier accounts and terminals' },
      { path: '/terminal', title: 'Terminals', description: 'Where product is loaded' },
      { path: '/invoice-parse', title: 'Bill Parser', description: 'Automated bill processing', beta: true },
    ],
  },
  {
    id: 'operations',
    title: 'Operations & Logistics',
    buttonLabel: 'Operations',
    color: '#ef6c00',
    icon: 'operations',
    subItems: [
      { path: '/dispatch-center', title: 'Dispatch Center', description: 'Assign drivers and trucks, plan the day' },
      { path: '/forecast', title: 'Keep-Full Forecast', description: 'Tanks due for a delivery' },
      { path: '/driver', title: 'Drivers', description: 'Driver records and logins' },
      { path: '/company-asset', title: 'Company Assets', description: 'Fleet and equipment' },
      { path: '/asset-type', title: 'Asset Types', description: 'Kinds of trucks and equipment' },
      { path: '/yard', title: 'Yards', description: 'Where the fleet is based' },
      { path: '/region', title: 'Regions', description: 'Delivery regions' },
      { path: '/state', title: 'States', description: 'States you deliver in' },
      { path: '/city', title: 'Cities', description: 'Cities you deliver in' },
    ],
  },
  {
    id: 'products',
    title: 'Products & Inventory',
    buttonLabel: 'Products',
    color: '#00838f',
    icon: 'products',
    subItems: [
      { path: '/product', title: 'Products', description: 'Fuels, lubricants and goods' },
      { path: '/product-category', title: 'Product Categories', description: 'Top-level product groups' },
      { path: '/product-sub-category', title: 'Product Sub-Categories', description: 'Groups within a category' },
    ],
  },
  {
    id: 'pricing',
    title: 'Pricing',
    buttonLabel: 'Pricing',
    color: '#c62828',
    icon: 'pricing',
    subItems: [
      { path: '/pricing-rule', title: 'Pricing Rules', description: 'How selling prices are set' },
      { path: '/tax', title: 'Taxes', description: 'Taxes and their rates' },
      { path: '/fee', title: 'Fees', description: 'Delivery and service fees' },
      { path: '/payment-term', title: 'Payment Terms', description: 'When invoices fall due' },
      { path: '/payment-method', title: 'Payment Methods', description: 'How customers pay' },
    ],
  },
  { id: 'email', title: 'Email', buttonLabel: 'Email', color: '#283593', icon: 'email', subItems: [] },
  {
    id: 'integrations',
    title: 'Integrations',
    buttonLabel: 'Integrations',
    color: '#4e342e',
    icon: 'integrations',
    subItems: [
      { path: '/quickbook-online', title: 'QuickBooks Online', description: 'Accounting integration' },
      { path: '/quickbook-online/map-items', title: 'Map Items', description: 'Match products to accounting items' },
      { path: '/google-authentication', title: 'Google Authentication', description: 'Mail-provider integration' },
    ],
  },
  {
    id: 'users',
    title: 'Users',
    buttonLabel: 'Users',
    color: '#37474f',
    icon: 'users',
    subItems: [
      { path: '/user-management', title: 'User Management', description: 'Manage users and drivers' },
      { path: '/role-management', title: 'Roles & Permissions', description: 'Who can do what' },
    ],
  },
  {
    id: 'settings',
    title: 'Settings',
    buttonLabel: 'Settings',
    color: '#455a64',
    icon: 'settings',
    subItems: [
      { path: '/company-settings', title: 'Company Settings', description: 'Company profile and logo' },
      { path: '/customer-contact-book', title: 'Customer Contact Book', description: 'Contacts and subscriptions' },
      { path: '/about-us', title: 'About Us', description: 'About FuelDesk' },
      { path: '/onboarding', title: 'Onboarding', description: 'Set up your company step by step', beta: true },
      { path: '/template-designer', title: 'Template Designer', description: 'Custom document templates' },
    ],
  },
];

/** Where a group leads when clicked: its own path when it has no sub-pages. */
export function groupPath(item: MenuItem): string | null {
  return item.subItems.length === 0 ? `/${item.id}` : null;
}

/** The sub-page path that best matches the location (longest prefix on a segment boundary). */
export function activeSubPath(pathname: string, items: readonly MenuItem[] = MENU): string | null {
  let best: string | null = null;
  for (const group of items) {
    const candidates = group.subItems.map((s) => s.path).concat(groupPath(group) ?? []);
    for (const path of candidates) {
      if (pathname === path || pathname.startsWith(path + '/')) {
        if (!best || path.length > best.length) best = path;
      }
    }
  }
  return best;
}

/** The group that holds the current page, for highlighting its button. */
export function activeGroupId(pathname: string, items: readonly MenuItem[] = MENU): string | null {
  const path = activeSubPath(pathname, items);
  if (!path) return null;
  const group = items.find((g) => groupPath(g) === path || g.subItems.some((s) => s.path === path));
  return group?.id ?? null;
}

/** Title of the page at a path (for page headers and 'not available yet' notices). */
export function titleForPath(pathname: string, items: readonly MenuItem[] = MENU): string | null {
  const path = activeSubPath(pathname, items);
  if (!path) return null;
  for (const g of items) {
    if (groupPath(g) === path) return g.title;
    const sub = g.subItems.find((s) => s.path === path);
    if (sub) return sub.title;
  }
  return null;
}
