import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { jwtExpiringIn } from '@/testing/jwt';
import DueListPage from './DueListPage';
import type { DueRow } from './types';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function row(id: number, over: Partial<DueRow> = {}): DueRow {
  return {
    asset_id: id, asset_name: `Tank ${id}`, serial_number: '', customer_id: 10 + id, customer_name: `Customer ${id}`, ship_to_name: '', product_name: 'Heating Oil',
    usable_gallons: '240.00', level_gallons: '60.00', level_percent: '25.00', reorder_date: '2026-12-08', runout_date: '2026-12-12', runout_early: null, runout_late: null,
    suggested_date: '2026-12-08', suggested_gallons: '180.00', confidence: 'medium', reason: 'Reaches reorder in 2 days', risk: 0.5, open_order_id: null, open_order_number: null,
    ...over,
  };
}

function route(handlers: Record<string, (init?: RequestInit) => Response>) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const key = Object.keys(handlers).find((k) => {
      const [m, path] = k.split(' ');
      return m === method && url.includes(path);
    });
    return key ? handlers[key](init) : json({ detail: 'Not found' }, 404);
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('due list screen', () => {
  it('shows the open order instead of a checkbox, and creates the picked orders with links to them', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    const due = { as_of: null, within_days: 7, rows: [row(1), row(2, { open_order_id: 77, open_order_number: 'SO-77' })] };
    const fetch = route({
      'GET /api/forecast/due': () => json({ status_code: 200, message: 'ok', data: due }),
      'POST /api/forecast/due/orders': () =>
        json({ status_code: 201, message: '1 sales order created', data: { orders: [{ asset_id: 1, sales_order_id: 501, number: 'SO-501', customer_id: 11, planned_date: '2026-12-08', quantity: '180.000', amount: '540.00', unit_price: '3.0000', price_error: '' }] } }, 201),
    });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<DueListPage />, { route: '/forecast' });
    const second = await screen.findByTestId('due-row-2');
    expect(within(second).getByRole('link', { name: 'Order SO-77' })).toHaveAttribute('href', '/sales-order/77');
    expect(within(second).queryByRole('checkbox')).toBeNull();

    const create = screen.getByRole('button', { name: 'Create orders' });
    expect(create).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every tank without an open order' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create 1 order' }));
    const results = await screen.findByTestId('create-results');
    expect(within(results).getByRole('link', { name: 'Order SO-501' })).toHaveAttribute('href', '/sales-order/501');
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({ tanks: [{ asset_id: 1, planned_date: '2026-12-08', quantity: '180' }] });
  });

  it('marks the tank that stopped an all-or-nothing create, and says none was created', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    const due = { as_of: null, within_days: 7, rows: [row(1), row(3)] };
    vi.stubGlobal(
      'fetch',
      route({
        'GET /api/forecast/due': () => json({ status_code: 200, message: 'ok', data: due }),
        'POST /api/forecast/due/orders': () => json({ detail: "tanks[1]: Tank 3 has no product: set the tank's product first." }, 422),
      }),
    );
    renderWithProviders(<DueListPage />, { route: '/forecast' });
    await screen.findByTestId('due-row-3');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every tank without an open order' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create 2 orders' }));
    expect(await screen.findByTestId('create-failure')).toHaveTextContent('No order was created');
    await waitFor(() => expect(within(screen.getByTestId('due-row-3')).getByRole('alert')).toHaveTextContent('has no product'));
    expect(within(screen.getByTestId('due-row-1')).queryByRole('alert')).toBeNull();
  });

  it('says plainly when no tank is due', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    vi.stubGlobal('fetch', route({ 'GET /api/forecast/due': () => json({ status_code: 200, message: 'ok', data: { as_of: null, within_days: 7, rows: [] } }) }));
    renderWithProviders(<DueListPage />, { route: '/forecast' });
    expect(await screen.findByText('No tank reaches its reorder point within 7 days')).toBeInTheDocument();
  });

  it('runs the forecast now (a 202 answer) and shows its progress to the end', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    const run = { id: 9, status: 'queued', trigger: 'manual', as_of: null, done: 0, total: 0, tanks_forecast: 0, tanks_failed: 0, due: 0, step: '', error: '', seconds: null, created_at: '2026-12-06T10:00:00Z', started_at: null, finished_at: null };
    vi.stubGlobal(
      'fetch',
      route({
        'GET /api/forecast/due': () => json({ status_code: 200, message: 'ok', data: { as_of: null, within_days: 7, rows: [] } }),
        'POST /api/forecast/run': () => json({ status_code: 202, message: 'Forecast run queued', data: run }, 202),
        'GET /api/forecast/run/9': () => json({ status_code: 200, message: 'ok', data: { ...run, status: 'succeeded', done: 40, total: 40, tanks_forecast: 38, tanks_failed: 2, due: 5 } }),
      }),
    );
    renderWithProviders(<DueListPage />, { route: '/forecast' });
    fireEvent.click(await screen.findByRole('button', { name: 'Run forecast now' }));
    const progress = await screen.findByTestId('run-progress');
    await waitFor(() => expect(progress).toHaveAttribute('data-status', 'succeeded'));
    expect(progress).toHaveTextContent('Forecast done: 38 tanks forecast, 5 due, 2 could not be forecast');
  });
});
