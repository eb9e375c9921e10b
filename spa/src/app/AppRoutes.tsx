import { Suspense, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { PageSpinner } from '@/components/common/PageSpinner';
import { PublicOnly, RequireAuth, useSignedIn } from './guards';
import { NOT_FOUND_TEXT, PROTECTED_ROUTES, SUB_ROUTES, toRouterPath, type PageKey } from './routeTable';

// The shell and the generic pages are lazy too: the sign-in route loads none of them.
const ShellContainer = lazy(() => import('./ShellContainer'));
const NotAvailable = lazy(() => import('@/components/common/NotAvailable'));
const NotFoundPage = lazy(() => import('@/components/common/NotFoundPage'));

// Every page is its own lazy chunk.
const SignInPage = lazy(() => import('@/features/auth/SignInPage'));
const SignUpPage = lazy(() => import('@/features/auth/SignUpPage'));
const ResetRequestPage = lazy(() => import('@/features/auth/ResetRequestPage'));
const ResetConfirmPage = lazy(() => import('@/features/auth/ResetConfirmPage'));
const InfoPage = lazy(() => import('@/features/info/InfoPage'));
const PublicFrame = lazy(() => import('@/features/auth/PublicFrame'));
// Views the spec's route table does not show live under its protected prefixes (ARCHITECTURE.md).
const JobLogPage = lazy(() => import('@/features/jobs/JobLogPage'));
const DataExportPage = lazy(() => import('@/features/dataExport/DataExportPage'));
const InboxPage = lazy(() => import('@/features/inbox/InboxPage'));

const PAGES: Record<Exclude<PageKey, 'pending'>, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('@/features/dashboard/DashboardPage')),
  companySettings: lazy(() => import('@/features/company/CompanySettingsPage')),
  userManagement: lazy(() => import('@/features/users/UserManagementPage')),
  roleManagement: lazy(() => import('@/features/roles/RoleManagementPage')),
  state: lazy(() => import('@/features/geo/StatePage')),
  city: lazy(() => import('@/features/geo/CityPage')),
  region: lazy(() => import('@/features/geo/RegionPage')),
  yard: lazy(() => import('@/features/geo/YardPage')),
  paymentTerm: lazy(() => import('@/features/payments/PaymentTermPage')),
  paymentMethod: lazy(() => import('@/features/payments/PaymentMethodPage')),
  tax: lazy(() => import('@/features/pricing/TaxPage')),
  fee: lazy(() => import('@/features/pricing/FeePage')),
  pricingRule: lazy(() => import('@/features/pricing/PricingRulePage')),
  buyingPrice: lazy(() => import('@/features/pricing/BuyingPricePage')),
  driver: lazy(() => import('@/features/fleet/DriverPage')),
  companyAsset: lazy(() => import('@/features/fleet/CompanyAssetPage')),
  assetType: lazy(() => import('@/features/fleet/AssetTypePage')),
  product: lazy(() => import('@/features/catalog/ProductPage')),
  productCategory: lazy(() => import('@/features/catalog/ProductCategoryPage')),
  productSubCategory: lazy(() => import('@/features/catalog/ProductSubCategoryPage')),
  customer: lazy(() => import('@/features/parties/CustomerPage')),
  customerCompanyType: lazy(() => import('@/features/parties/CustomerCompanyTypePage')),
  customerContactBook: lazy(() => import('@/features/customerContact/ContactBookPage')),
  supplier: lazy(() => import('@/features/parties/SupplierPage')),
  terminal: lazy(() => import('@/features/parties/TerminalPage')),
  templateDesigner: lazy(() => import('@/features/documents/DesignerPage')),
  email: lazy(() => import('@/features/email/EmailPage')),
  salesOrder: lazy(() => import('@/features/sales/SalesOrderPage')),
  salesOrderBoard: lazy(() => import('@/features/sales/SalesOrderBoardPage')),
  dispatchCenter: lazy(() => import('@/features/sales/DispatchCenterPage')),
  todaysOrder: lazy(() => import('@/features/driver/TodaysOrdersPage')),
  dailySummary: lazy(() => import('@/features/driver/DailySummaryPage')),
  purchaseOrder: lazy(() => import('@/features/purchasing/PurchaseOrderPage')),
  invoice: lazy(() => import('@/features/invoices/InvoicePage')),
  priceQuotes: lazy(() => import('@/features/quotes/PriceQuotesPage')),
  deliveryTicket: lazy(() => import('@/features/delivery/DeliveryTicketPage')),
  deliveryOrderEntry: lazy(() => import('@/features/delivery/DeliveryEntryPage')),
  billParser: lazy(() => import('@/features/billparse/BillParserPage')),
  onboarding: lazy(() => import('@/features/onboarding/OnboardingPage')),
  googleAuthentication: lazy(() => import('@/features/google/GoogleAuthenticationPage')),
  quickbooks: lazy(() => import('@/features/quickbooks/QuickbooksPage')),
  forecast: lazy(() => import('@/features/forecast/ForecastPage')),
  routePlan: lazy(() => import('@/features/routing/RoutePlanPage')),
  routingSettings: lazy(() => import('@/features/routing/RoutingSettingsPage')),
};

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

/** /delivery-ticket/{id}: the printable ticket, without the shell (spec). */
function DeliveryTicketStandalone() {
  const Page = PAGES.deliveryTicket;
  return (
    <Lazy>
      <Page />
    </Lazy>
  );
}

type InfoKind = 'about' | 'eula' | 'privacy';

/** About, EULA and privacy: inside the shell when signed in, in the public frame otherwise. */
function InfoRoute({ kind }: { kind: InfoKind }) {
  const signedIn = useSignedIn();
  if (signedIn) return null; // handled by the shell branch below
  return (
    <Lazy>
      <PublicFrame wide>
        <InfoPage kind={kind} />
      </PublicFrame>
    </Lazy>
  );
}

/** Unknown paths: the sign-in page when signed out, the not-found page when signed in. */
function CatchAll() {
  const signedIn = useSignedIn();
  if (!signedIn) {
    return (
      <Lazy>
        <SignInPage />
      </Lazy>
    );
  }
  return (
    <Lazy>
      <NotFoundPage text={NOT_FOUND_TEXT} />
    </Lazy>
  );
}

export function AppRoutes() {
  const signedIn = useSignedIn();
  return (
    <Routes>
      <Route
        path="/delivery-ticket/:id"
        element={
          <RequireAuth>
            <DeliveryTicketStandalone />
          </RequireAuth>
        }
      />
      <Route
        element={
          <RequireAuth>
            <Lazy>
              <ShellContainer />
            </Lazy>
          </RequireAuth>
        }
      >
        {/* More specific than /company-settings/*: the job log (spec: route not shown). */}
        <Route path="/company-settings/job-log" element={<Lazy><JobLogPage /></Lazy>} />
        <Route path="/company-settings/export" element={<Lazy><DataExportPage /></Lazy>} />
        {/* More specific than /email/*: the inbox agent (spec: route not shown; issue 15 part 4). */}
        <Route path="/email/inbox/*" element={<Lazy><InboxPage /></Lazy>} />
        {SUB_ROUTES.map((r) => {
          const Page = PAGES[r.page as Exclude<PageKey, 'pending'>];
          return <Route key={r.path} path={toRouterPath(r.path)} element={<Lazy><Page /></Lazy>} />;
        })}
        {PROTECTED_ROUTES.filter((r) => r.shell).map((r) => {
          const Page = r.page === 'pending' ? null : PAGES[r.page];
          return (
            <Route
              key={r.path}
              path={toRouterPath(r.path)}
              element={<Lazy>{Page ? <Page /> : <NotAvailable title={r.title} />}</Lazy>}
            />
          );
        })}
      </Route>

      {signedIn ? (
        <Route element={<Lazy><ShellContainer /></Lazy>}>
          <Route path="/about-us" element={<Lazy><InfoPage kind="about" /></Lazy>} />
          <Route path="/eula" element={<Lazy><InfoPage kind="eula" /></Lazy>} />
          <Route path="/privacy-policy" element={<Lazy><InfoPage kind="privacy" /></Lazy>} />
          <Route path="*" element={<CatchAll />} />
        </Route>
      ) : (
        <>
          <Route path="/about-us" element={<InfoRoute kind="about" />} />
          <Route path="/eula" element={<InfoRoute kind="eula" />} />
          <Route path="/privacy-policy" element={<InfoRoute kind="privacy" />} />
          <Route path="*" element={<CatchAll />} />
        </>
      )}

      <Route path="/signup" element={<PublicOnly><Lazy><SignUpPage /></Lazy></PublicOnly>} />
      <Route path="/reset-password" element={<Lazy><ResetRequestPage /></Lazy>} />
      <Route path="/reset-password/:token/*" element={<Lazy><ResetConfirmPage /></Lazy>} />
      <Route path="/" element={<PublicOnly><Lazy><SignInPage /></Lazy></PublicOnly>} />
      <Route path="/login" element={<PublicOnly><Lazy><SignInPage /></Lazy></PublicOnly>} />
    </Routes>
  );
}
