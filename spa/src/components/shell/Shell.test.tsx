import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { AppShell } from './AppShell';
import { bottomBarSlots, EXPAND_SIDEBAR_EVENT, SALES_ORDER_FULLSCREEN_EVENT } from './layout';
import { MENU } from './menu';

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

  it('reaches every group at 390px: the groups that do not fit are behind More', () => {
    renderWithProviders(<AppShell {...props} isDriver={false}><p>content</p></AppShell>, { route: '/dashboard' });
    const bar = screen.getByTestId('bottom-bar');
    const onBar = within(bar).getAllByRole('button').map((b) => b.getAttribute('aria-label'));
    // 390 / 65 = 6 slots: five groups and More, nothing scrolled out of sight.
    expect(onBar).toEqual([...MENU.slice(0, 5).map((g) => g.title), 'More']);
    fireEvent.click(within(bar).getByRole('button', { name: 'More' }));
    const more = screen.getByRole('dialog', { name: 'More' });
    const rest = within(more).getAllByRole('button').filter((b) => b.getAttribute('aria-label') !== 'Close menu').map((b) => b.textContent);
    expect([...onBar.slice(0, -1), ...rest]).toEqual(MENU.map((g) => g.title));
    // A group with sub-pages opens its own sheet, with the way back to More.
    fireEvent.click(within(more).getByRole('button', { name: 'Users' }));
    const users = screen.getByRole('dialog', { name: 'Users' });
    expect(within(users).getByRole('link', { name: /User Management/ })).toHaveAttribute('href', '/user-management');
    fireEvent.click(within(users).getByRole('button', { name: 'Back to More' }));
    expect(screen.getByRole('dialog', { name: 'More' })).toBeInTheDocument();
    // A group without sub-pages (Email) navigates straight away.
    fireEvent.click(within(screen.getByRole('dialog', { name: 'More' })).getByRole('button', { name: 'Email' }));
    expect(screen.queryByTestId('bottom-sheet')).not.toBeInTheDocument();
  });

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
    // The chip names the truck by its number (a name like 'Kenworth T370' was cut to 'Ken…').
    expect(screen.getByTestId('truck-chip')).toHaveTextContent(/^T-101$/);
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

describe('bottom bar slots', () => {
  it('shows every group when they fit and puts the rest behind More when not', () => {
    expect(bottomBarSlots(768, 10)).toEqual({ shown: 10, more: false });
    expect(bottomBarSlots(390, 10)).toEqual({ shown: 5, more: true });
    expect(bottomBarSlots(320, 10)).toEqual({ shown: 3, more: true });
  });
});
