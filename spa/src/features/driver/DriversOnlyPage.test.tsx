import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@/lib/auth/storageKeys';
import { jwtExpiringIn } from '@/testing/jwt';
import { renderWithProviders } from '@/testing/render';
import { DriversOnly } from './DriversOnlyPage';

function serve(permissions: string[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      const data = { id: 1, permissions, role: { grants_all: false } };
      return new Response(JSON.stringify({ status_code: 200, message: 'ok', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("a driver's page opened by the office (issue 23)", () => {
  it('shows an office user a clear page with a link home, not the driver page', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    window.localStorage.setItem(STORAGE_KEYS.userRole, 'Dispatcher');
    serve(['dispatch.view']);
    renderWithProviders(
      <DriversOnly page="Today's stops">
        <div>driver stops</div>
      </DriversOnly>,
      { route: '/todays-order' },
    );
    expect(screen.getByRole('heading', { name: "Today's stops is the drivers' page" })).toBeInTheDocument();
    expect(screen.queryByText('driver stops')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(await screen.findByRole('link', { name: 'Open the Dispatch Center' })).toHaveAttribute('href', '/dispatch-center');
  });

  it('hides the Dispatch Center link from those who cannot open it', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    window.localStorage.setItem(STORAGE_KEYS.userRole, 'Accounting');
    serve(['invoice.view']);
    renderWithProviders(
      <DriversOnly page="Today's stops">
        <div>driver stops</div>
      </DriversOnly>,
    );
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: 'Open the Dispatch Center' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toBeInTheDocument();
  });

  it('gives a driver his page', () => {
    window.localStorage.setItem(STORAGE_KEYS.userRole, 'driver');
    renderWithProviders(
      <DriversOnly page="Today's stops">
        <div>driver stops</div>
      </DriversOnly>,
    );
    expect(screen.getByText('driver stops')).toBeInTheDocument();
    expect(screen.queryByTestId('drivers-only')).not.toBeInTheDocument();
  });
});
