import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { AppShell } from './AppShell';
import { EXPAND_SIDEBAR_EVENT, SALES_ORDER_FULLSCREEN_EVENT } from './layout';

const props = { companyName: null, logoUrl: null, userName: 'Ann Admin', onLogout: vi.fn() };

function setWidth(w: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: w });
}

describe('desktop shell', () => {
  beforeEach(() => setWidth(1440));
  afterEach(() => vi.useRealTimers());

  it('opens a group popup on hover and closes it 150 ms after leaving', () => {
    vi.useFakeTimers();
    renderWithProviders(<AppShell {...props} isDriver={false}><p>content</p></AppShell>, { route: '/customer' });
    const sales = screen.getByTestId('rail-group-sales');
    fireEvent.mouseEnter(sales);
    const popup = screen.getByTestId('menu-popup');
    expect(within(popup).getByText('Sales (AR)')).toBeInTheDocument();
    expect(within(popup).getByText('BETA')).toBeInTheDocument();
    expect(within(popup).getByRole('link', { name: /Customers/ })).toHaveAttribute('aria-current', 'page');
    expect(within(popup).getByRole('button', { name: 'Open in New Tab: Invoices' })).toBeInTheDocument();
    fireEvent.mouseLeave(sales);
    act(() => vi.advanceTimersByTime(149));
    expect(screen.getByTestId('menu-popup')).toBeInTheDocument();
    // Moving into the popup keeps it open.
    fireEvent.mouseEnter(screen.getByTestId('menu-popup'));
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByTestId('menu-popup')).toBeInTheDocument();
    fireEvent.mouseLeave(screen.getByTestId('menu-popup'));
    act(() => vi.advanceTimersByTime(150));
    expect(screen.queryByTestId('menu-popup')).not.toBeInTheDocument();
  });

  it('hides the rail from the logo and restores it from the floating button', () => {
    renderWithProviders(<AppShell {...props} isDriver={false}><p>content</p></AppShell>, { route: '/dashboard' });
    fireEvent.click(screen.getByRole('button', { name: 'Click to hide menu' }));
    expect(screen.queryByTestId('rail')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Click to show menu' }));
    expect(screen.getByTestId('rail')).toBeInTheDocument();
  });

  it('follows the expand-sidebar and sales-order fullscreen-change events', () => {
    renderWithProviders(<AppShell {...props} isDriver={false}><p>content</p></AppShell>, { route: '/dashboard' });
    act(() => {
      window.dispatchEvent(new CustomEvent(SALES_ORDER_FULLSCREEN_EVENT, { detail: { isFullscreen: true } }));
    });
    expect(screen.queryByTestId('rail')).not.toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event(EXPAND_SIDEBAR_EVENT));
    });
    expect(screen.getByTestId('rail')).toBeInTheDocument();
  });

  it('shows the placeholder company name and logs out with the user name', () => {
    const onLogout = vi.fn();
    renderWithProviders(<AppShell {...props} onLogout={onLogout} isDriver={false}><p>content</p></AppShell>);
    expect(screen.getByTestId('rail-company')).toHaveTextContent('Your Company');
    fireEvent.click(screen.getByRole('button', { name: 'Log out Ann Admin' }));
    expect(onLogout).toHaveBeenCalled();
  });

  it('shows the company name when there is one', () => {
    renderWithProviders(<AppShell {...props} companyName="Acme Fuels" isDriver={false}><p>content</p></AppShell>);
    expect(screen.getByTestId('rail-company')).toHaveTextContent('Acme Fuels');
  });
});

describe('phone shell (≤ 768px)', () => {
  beforeEach(() => setWidth(390));
  afterEach(() => setWidth(1024));

  it('shows the bottom bar and closes the sheet three ways', () => {
    renderWithProviders(<AppShell {...props} isDriver={false}><p>content</p></AppShell>, { route: '/dashboard' });
    expect(screen.queryByTestId('rail')).not.toBeInTheDocument();
    const bar = screen.getByTestId('bottom-bar');
    const sales = within(bar).getByRole('button', { name: 'Sales (AR)' });
    // 1. the backdrop
    fireEvent.click(sales);
    expect(screen.getByTestId('bottom-sheet')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('sheet-backdrop'));
    expect(screen.queryByTestId('bottom-sheet')).not.toBeInTheDocument();
    // 2. the close control
    fireEvent.click(sales);
    fireEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByTestId('bottom-sheet')).not.toBeInTheDocument();
    // 3. the same group again
    fireEvent.click(sales);
    expect(screen.getByTestId('bottom-sheet')).toBeInTheDocument();
    fireEvent.click(sales);
    expect(screen.queryByTestId('bottom-sheet')).not.toBeInTheDocument();
  });
});

describe('driver layout', () => {
  it('has no rail and no bottom bar, and shows the driver header', () => {
    window.localStorage.setItem('user_role', 'DRIVER');
    window.localStorage.setItem('selected_company_assets', JSON.stringify([{ id: 3, name: 'Kenworth T370', asset_number: 'T-101' }]));
    renderWithProviders(<AppShell {...props}><p>content</p></AppShell>);
    expect(screen.getByText('Driver App')).toBeInTheDocument();
    expect(screen.getByText('Driver Portal')).toBeInTheDocument();
    expect(screen.getByText('Kenworth T370')).toBeInTheDocument();
    expect(screen.getByText('Ann Admin')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change Trucks' })).toBeInTheDocument();
    expect(screen.queryByTestId('rail')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bottom-bar')).not.toBeInTheDocument();
  });

  it("'Change Trucks' says there are none when the company has no trucks", async () => {
    window.localStorage.setItem('user_role', 'driver');
    renderWithProviders(<AppShell {...props} loadTrucks={() => Promise.resolve([])}><p>content</p></AppShell>);
    fireEvent.click(screen.getByRole('button', { name: 'Change Trucks' }));
    expect(await screen.findByTestId('no-trucks', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('asks before a logout would delete deliveries still waiting to be sent', async () => {
    window.localStorage.setItem('user_role', 'driver');
    const onLogout = vi.fn();
    renderWithProviders(<AppShell {...props} onLogout={onLogout} countUnsent={() => Promise.resolve(2)}><p>content</p></AppShell>);
    fireEvent.click(screen.getByRole('button', { name: 'Log out Ann Admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deliveries not sent yet' });
    expect(dialog).toHaveTextContent('2 delivery actions are still waiting');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    expect(onLogout).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Log out Ann Admin' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Log out anyway' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('logs out at once when nothing waits in the queue', async () => {
    window.localStorage.setItem('user_role', 'driver');
    const onLogout = vi.fn();
    renderWithProviders(<AppShell {...props} onLogout={onLogout} countUnsent={() => Promise.resolve(0)}><p>content</p></AppShell>);
    fireEvent.click(screen.getByRole('button', { name: 'Log out Ann Admin' }));
    await vi.waitFor(() => expect(onLogout).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
