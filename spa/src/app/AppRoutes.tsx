import { Suspense, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Route, Routes, useParams } from 'react-router-dom';
import { PageSpinner } from '@/components/common/PageSpinner';
import { PublicOnly, RequireAuth, useSignedIn } from './guards';
import { NOT_FOUND_TEXT, PROTECTED_ROUTES, toRouterPath, type PageKey } from './routeTable';

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
};

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

function DeliveryTicketStandalone() {
  const { id } = useParams();
  return (
    <Lazy>
      <NotAvailable title={`Delivery Ticket ${id ?? ''}`.trim()} />
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
