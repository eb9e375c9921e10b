import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import QuickbooksPage from './QuickbooksPage';
import type { Connection, ItemMapRow } from './quickbooksApi';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown) => json({ status_code: 200, message: 'ok', data });

const CONNECTED: Connection = {
  state: 'connected',
  realm_id: '9341',
  company_name: 'Demo Books',
  connected_at: '2026-11-24T08:00:00Z',
  last_sync_at: null,
  last_error: '',
  pending: { customers: 3, items: 2, invoices: 1 },
  tax_mode: 'us',
  sales_tax_code: '',
  exempt_tax_code: '',
};
const DISCONNECTED: Connection = { ...CONNECTED, state: 'disconnected', realm_id: '', company_name: '', connected_at: null };

type Handler = (method: string, url: URL, body: unknown) => Response | undefined;
let calls: { method: string; path: string; body: unknown }[] = [];

function serve(handler: Handler) {
  calls = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' && init.body ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body });
    return handler(method, url, body) ?? json({ detail: `unexpected ${method} ${url.pathname}` }, 404);
  });
  vi.stubGlobal('fetch', fetch);
}

const customers = (items: unknown[]) => ok({ items, total: items.length, page: 1, size: 20, pages: 1 });

beforeEach(() => {
  toast.error.mockReset();
  toast.success.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

describe('QuickBooks Online connection', () => {
  it('connects by sending the browser to the authorization URL', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    serve((m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok(DISCONNECTED);
      if (u.pathname === '/api/intuit/customers') return customers([]);
      if (m === 'POST' && u.pathname === '/api/quickbook/connect') return ok({ authorization_url: 'https://appcenter.intuit.test/connect?state=abc' });
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook-online' });
    expect(await screen.findByTestId('qbo-state')).toHaveTextContent('Not connected');
    expect(screen.getByRole('button', { name: 'Sync selected' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Connect to QuickBooks Online' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://appcenter.intuit.test/connect?state=abc'));
  });

  it('posts the callback query once on /quickbook/login and shows the connection', async () => {
    let connected = false;
    serve((m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok(connected ? CONNECTED : DISCONNECTED);
      if (u.pathname === '/api/intuit/customers') return customers([]);
      if (m === 'POST' && u.pathname === '/api/quickbook/callback') {
        connected = true;
        return ok(CONNECTED);
      }
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook/login?code=c0de&state=st4te&realmId=9341' });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Connected to QuickBooks Online'));
    expect(calls.filter((c) => c.path === '/api/quickbook/callback')).toEqual([{ method: 'POST', path: '/api/quickbook/callback', body: { code: 'c0de', state: 'st4te', realmId: '9341' } }]);
    expect(await screen.findByText('Demo Books')).toBeInTheDocument();
    expect(screen.getByTestId('qbo-pending-customers')).toHaveTextContent('3');
  });

  it("shows the server's detail when the callback is refused (a forged state)", async () => {
    serve((m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok(DISCONNECTED);
      if (u.pathname === '/api/intuit/customers') return customers([]);
      if (m === 'POST' && u.pathname === '/api/quickbook/callback') return json({ detail: 'The connection request has expired or was not made here. Please connect again.' }, 400);
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook/login?code=c0de&state=forged&realmId=9341' });
    expect(await screen.findByTestId('qbo-callback-error')).toHaveTextContent('The connection request has expired or was not made here. Please connect again.');
    expect(screen.getByRole('button', { name: 'Connect to QuickBooks Online' })).toBeInTheDocument();
  });

  it('offers Reconnect with the last error when the connection was revoked', async () => {
    serve((_m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok({ ...CONNECTED, state: 'reconnect', last_error: 'invalid_grant: token revoked' });
      if (u.pathname === '/api/intuit/customers') return customers([]);
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook-online' });
    expect(await screen.findByTestId('qbo-state')).toHaveTextContent('Reconnect needed');
    expect(screen.getByTestId('qbo-last-error')).toHaveTextContent('Last error: invalid_grant: token revoked');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
  });

  it('syncs the selected customers and follows the job to its end', async () => {
    let polls = 0;
    serve((m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok(CONNECTED);
      if (u.pathname === '/api/intuit/customers')
        return customers([
          { id: 1, name: 'Acme', external_id: '58', sync_state: 'synced', last_sync_error: '' },
          { id: 2, name: 'Bolt', external_id: '', sync_state: 'failed', last_sync_error: 'Duplicate Name Exists Error (6240)' },
        ]);
      if (m === 'POST' && u.pathname === '/api/intuit/customers/sync') return ok({ job_id: 'f00d', kind: 'quickbooks_customers' });
      if (u.pathname.startsWith('/api/job-log')) {
        polls += 1;
        return ok({ items: [{ id: 77, kind: 'quickbooks_customers', message: 'QuickBooks customer sync', status: polls > 1 ? 'succeeded' : 'running', error: '', created: '2026-11-24T09:00:00Z' }], total: 1, page: 1, size: 1, pages: 1 });
      }
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook-online' });
    const bolt = await screen.findByTestId('qbo-customer-2', {}, { timeout: 5000 });
    expect(within(bolt).getByText('Failed')).toBeInTheDocument();
    expect(within(bolt).getByText('Duplicate Name Exists Error (6240)')).toBeInTheDocument();
    fireEvent.click(within(bolt).getByRole('checkbox', { name: 'Select Bolt' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sync selected (1)' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/intuit/customers/sync')?.body).toEqual({ customer_ids: [2] }));
    expect(await screen.findByTestId('job-progress')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('job-progress')).toHaveAttribute('data-status', 'succeeded'), { timeout: 5000 });
    expect(toast.success).toHaveBeenCalledWith('QuickBooks customer sync: done');
    expect(calls.find((c) => c.path.startsWith('/api/job-log'))).toBeTruthy();
    expect(calls.some((c) => c.path.startsWith('/api/job-log'))).toBe(true);
  });
});

describe('Sales tax codes (outside the US)', () => {
  it('is not shown to a US company', async () => {
    serve((_m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok(CONNECTED);
      if (u.pathname === '/api/intuit/customers') return customers([]);
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook-online' });
    expect(await screen.findByTestId('qbo-state')).toHaveTextContent('Connected');
    expect(screen.queryByTestId('qbo-tax-codes')).not.toBeInTheDocument();
  });

  it('asks for both codes, then saves the chosen ones', async () => {
    const abroad: Connection = { ...CONNECTED, tax_mode: 'codes' };
    serve((m, u, body) => {
      if (u.pathname === '/api/quickbook/connection') return ok(abroad);
      if (u.pathname === '/api/intuit/customers') return customers([]);
      if (u.pathname === '/api/quickbook/tax-codes')
        return ok([
          { id: '1', name: 'Standard rate', active: true },
          { id: '3', name: 'Exempt', active: true },
          { id: '9', name: 'Old rate', active: false },
        ]);
      if (m === 'PUT' && u.pathname === '/api/quickbook/tax-settings') return ok({ ...abroad, ...(body as object) });
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook-online' });
    const card = await screen.findByTestId('qbo-tax-codes');
    expect(card).toHaveTextContent('Choose both codes before posting invoices.');
    const saveButton = within(card).getByRole('button', { name: 'Save tax codes' });
    expect(saveButton).toBeDisabled();
    fireEvent.mouseDown(within(card).getByRole('combobox', { name: 'Lines with sales tax' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Standard rate', 'Exempt']);
    fireEvent.click(screen.getByRole('option', { name: 'Standard rate' }));
    fireEvent.mouseDown(within(card).getByRole('combobox', { name: 'Lines without sales tax' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Exempt' }));
    expect(saveButton).toBeEnabled();
    fireEvent.click(saveButton);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Tax codes saved'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([
      ['/api/quickbook/tax-settings', { sales_tax_code: '1', exempt_tax_code: '3' }],
    ]);
  });
});

describe('Map Items', () => {
  const rows: ItemMapRow[] = [
    { kind: 'product', local_id: 1, local_name: 'Clear Diesel', qbo_item_id: null, qbo_item_name: null, suggestion: { id: '11', name: 'Diesel' }, sync_state: 'not_synced', last_sync_error: '' },
    { kind: 'fee', local_id: 4, local_name: 'Delivery fee', qbo_item_id: '20', qbo_item_name: 'Delivery', suggestion: null, sync_state: 'synced', last_sync_error: '' },
  ];
  const items = [
    { id: '11', name: 'Diesel', type: 'NonInventory', active: true },
    { id: '20', name: 'Delivery', type: 'Service', active: true },
  ];

  it('before QuickBooks is connected: says so, links to connect and counts what there is to map', async () => {
    serve((m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok(DISCONNECTED);
      if (u.pathname === '/api/quickbook/item-map' && m === 'GET') return ok(rows.map((r) => ({ ...r, qbo_item_id: null, qbo_item_name: null, suggestion: null, sync_state: 'not_synced' })));
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook-online/map-items' });
    await screen.findByTestId('map-product-1', {}, { timeout: 5000 });
    expect(screen.getByText(/QuickBooks Online is not connected/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect' })).toHaveAttribute('href', '/quickbook-online');
    expect(screen.getByTestId('map-progress')).toHaveTextContent('0 of 2 mapped · 1 product, 1 fee, 0 taxes');
    expect(screen.queryByText(/needs reconnecting/)).toBeNull();
    expect(calls.some((c) => c.path === '/api/quickbook/items')).toBe(false);
  });

  it('marks the suggestion, saves it before syncing the selected rows', async () => {
    serve((m, u) => {
      if (u.pathname === '/api/quickbook/connection') return ok(CONNECTED);
      if (u.pathname === '/api/quickbook/item-map' && m === 'GET') return ok(rows);
      if (u.pathname === '/api/quickbook/items') return ok(items);
      if (u.pathname === '/api/quickbook/item-map' && m === 'PUT') return ok(null);
      if (u.pathname.startsWith('/api/job-log')) return ok({ items: [], total: 0, page: 1, size: 1, pages: 0 });
      if (u.pathname === '/api/quickbook/sync-selected-items') return ok({ job_id: 'be57', kind: 'quickbooks_items' });
    });
    renderWithProviders(<QuickbooksPage />, { route: '/quickbook-online/map-items' });
    const diesel = await screen.findByTestId('map-product-1', {}, { timeout: 5000 });
    expect(screen.getByTestId('map-progress')).toHaveTextContent('1 of 2 mapped');
    expect(within(diesel).getByTestId('suggested')).toHaveTextContent('Suggested');
    await waitFor(() => expect(within(diesel).getByRole('combobox')).toHaveValue('Diesel'));
    expect(within(screen.getByTestId('map-fee-4')).queryByTestId('suggested')).toBeNull();

    fireEvent.click(within(diesel).getByRole('checkbox', { name: 'Select Clear Diesel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sync selected (1)' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/quickbook/sync-selected-items')).toBe(true));
    const writes = calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body]);
    expect(writes).toEqual([
      ['PUT', '/api/quickbook/item-map', { kind: 'product', local_id: 1, qbo_item_id: '11' }],
      ['POST', '/api/quickbook/sync-selected-items', { items: [{ kind: 'product', local_id: 1 }] }],
    ]);
  });
});
