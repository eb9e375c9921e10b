import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from '@/testing/render';
import { jwtExpiringIn } from '@/testing/jwt';
import { AppRoutes } from './AppRoutes';
import { NOT_FOUND_TEXT, PROTECTED_ROUTES, PUBLIC_ROUTES } from './routeTable';

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname}</div>;
}

const app = (
  <>
    <AppRoutes />
    <Routes>
      <Route path="*" element={<Where />} />
    </Routes>
  </>
);

describe('route table (spec section 2)', () => {
  it('lists every protected route of the spec', () => {
    const spec = '/dashboard, /product, /product-category, /product-sub-category, /customer/*, /purchase-order/*, /state, /city, /tax/*, /terminal, /template-designer, /supplier/*, /sales-order/*, /invoice/*, /email/*, /sales-order-board, /delivery-ticket/{id}, /delivery-order-entry/{id}, /pricing-rule/*, /yard, /region, /driver, /company-asset, /asset-type, /fee, /customer-company-type, /customer-contact-book/*, /company-settings/*, /invoice-parse/*, /buying-price/*, /payment-term, /payment-method, /todays-order, /daily-summary, /quickbook-online/*, /quickbook/login, /google-authentication/*, /dispatch-center/*, /onboarding, /user-management/*, /role-management/*, /price-quotes/*'.split(', ');
    // Screens of later issues come after the spec's table (issue 26: keep-full forecasting).
    spec.push('/forecast/*');
    expect(PROTECTED_ROUTES.map((r) => r.path)).toEqual(spec);
    expect(PROTECTED_ROUTES.filter((r) => !r.shell).map((r) => r.path)).toEqual(['/delivery-ticket/{id}']);
    expect(PUBLIC_ROUTES).toEqual(['/*', '/signup', '/reset-password/*', '/about-us', '/eula', '/privacy-policy']);
  });

  it('sends a signed-out visitor of a protected route to / with replacement', async () => {
    renderWithProviders(app, { route: '/user-management' });
    expect(await screen.findByRole('button', { name: 'Sign in' }, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });

  it('shows the sign-in page for unknown paths when signed out', async () => {
    renderWithProviders(app, { route: '/some/unknown/path' });
    expect(await screen.findByRole('button', { name: 'Sign in' }, { timeout: 8000 })).toBeInTheDocument();
  });

  it('shows the not-found page with its exact texts when signed in', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    renderWithProviders(app, { route: '/no-such-page' });
    expect(await screen.findByText(NOT_FOUND_TEXT.title, {}, { timeout: 8000 })).toBeInTheDocument();
    expect(NOT_FOUND_TEXT).toEqual({ title: 'Oops! page not found', code: '404', body: "we couldn't find what you are looking for. Please try again with different url", button: 'Refresh Page' });
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByText(NOT_FOUND_TEXT.body)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh Page' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/dashboard'));
  });

  // The first route still pending, if any (features replace their pending entry as they land).
  const stillPending = PROTECTED_ROUTES.find((r) => r.page === 'pending');
  it.skipIf(!stillPending)("shows an honest 'not available yet' page for later features", async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    renderWithProviders(app, { route: stillPending!.path.replace('/*', '') });
    expect(await screen.findByText(`${stillPending!.title} is not available yet`, {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('renders /delivery-ticket/{id} without the shell', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = async (input: RequestInfo | URL) => {
      seen.push(input instanceof Request ? input.url : input.toString());
      return new Response(JSON.stringify({ detail: 'Delivery ticket not found' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
    };
    try {
      renderWithProviders(app, { route: '/delivery-ticket/42' });
      expect(await screen.findByText('Delivery ticket not found', {}, { timeout: 8000 })).toBeInTheDocument();
      expect(seen.some((u) => u.includes('/api/delivery-ticket/42/document'))).toBe(true);
      expect(screen.queryByTestId('rail')).not.toBeInTheDocument();
    } finally {
      globalThis.fetch = original;
    }
  });

  it('serves /signup, /reset-password and the info pages signed out', async () => {
    renderWithProviders(app, { route: '/eula' });
    expect(await screen.findByRole('heading', { name: 'End-User Licence Agreement' }, { timeout: 8000 })).toBeInTheDocument();
  });
});
