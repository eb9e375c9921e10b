import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import DashboardPage from './DashboardPage';
import { MSG_FETCH, MSG_PROCESS, useProductSummaryQuery, type ProductSummary } from './dashboardApi';
import { byUnit, chartWidth, daysSince, toChartData } from './summary';

const toastError = vi.hoisted(() => vi.fn());
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: vi.fn() } }));

beforeAll(() => {
  // The charts measure their box.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

const day = (date: string, revenue = '0.00', qty = '0.000') => ({
  date,
  quantity_ordered: qty,
  quantity_delivered: '0.000',
  revenue,
  margin: '0.00',
  lines: 0,
});

function summary(over: Partial<ProductSummary> = {}): ProductSummary {
  return {
    date_range: { start_date: '2026-11-22', end_date: '2026-11-24', days: 3 },
    products: [
      {
        product_id: 1, name: 'Clear Diesel', code: 'ULSD', sold_as: 'gallon',
        quantity_ordered: '1500.000', quantity_delivered: '480.000', revenue: '4600.00', cost: '3800.00', margin: '800.00',
        uncosted_revenue: '0.00', lines: 2,
        daily: [day('2026-11-22', '1600.00', '500.000'), day('2026-11-23'), day('2026-11-24', '3000.00', '1000.000')],
      },
      {
        product_id: 2, name: 'Unleaded 87', code: 'UNL', sold_as: 'gallon',
        quantity_ordered: '200.000', quantity_delivered: '0.000', revenue: '500.00', cost: '0.00', margin: '0.00',
        uncosted_revenue: '500.00', lines: 1,
        daily: [day('2026-11-22'), day('2026-11-23', '500.00', '200.000'), day('2026-11-24')],
      },
    ],
    totals: { revenue: '5100.00', cost: '3800.00', margin: '800.00', uncosted_revenue: '500.00', lines: 3 },
    kpis: {
      open_orders: 4,
      open_orders_by_status: [
        { status: 'draft', label: 'Draft', count: 1 },
        { status: 'verified', label: 'Verified', count: 3 },
        { status: 'assigned', label: 'Assigned', count: 0 },
      ],
      deliveries_today: { planned: 5, in_delivery: 1, delivered: 2 },
      late_orders: 2,
    },
    generated_at: '2026-11-24T10:00:00Z',
    cached: false,
    ...over,
  };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

afterEach(() => {
  vi.unstubAllGlobals();
  toastError.mockReset();
});

describe('summary processing', () => {
  it('turns the answer into per-day series and margins', () => {
    const data = toChartData(summary());
    expect(data.days).toEqual(['2026-11-22', '2026-11-23', '2026-11-24']);
    expect(data.products[0].revenueByDay).toEqual([1600, 0, 3000]);
    expect(data.products[1].orderedByDay).toEqual([0, 200, 0]);
    expect(data.products[0].marginPct).toBeCloseTo((800 / 4600) * 100);
    expect(data.products[1].marginPct).toBeNull(); // no line of it has a cost
    expect(data.marginPct).toBeCloseTo((800 / 4600) * 100); // over the costed revenue only
  });

  it('refuses a malformed answer', () => {
    expect(() => toChartData({ ...summary(), products: undefined } as unknown as ProductSummary)).toThrow();
    const bad = summary();
    bad.products[0].revenue = 'lots';
    expect(() => toChartData(bad)).toThrow(/revenue/);
    const outside = summary();
    outside.products[0].daily[0].date = '2026-10-01';
    expect(() => toChartData(outside)).toThrow(/outside/);
  });

  it('counts the days of a range, both ends included', () => {
    expect(daysSince('2026-11-18', '2026-11-24')).toBe(7);
    expect(daysSince('2026-11-24', '2026-11-24')).toBe(1);
    expect(daysSince('2026-02-27', '2026-03-01')).toBe(3);
  });
});

describe('quantities by unit', () => {
  const withDef = () => {
    const s = summary();
    s.products.push({
      product_id: 3, name: 'DEF, case of 2 x 2.5 gal jugs', code: 'DEF-2X25', sold_as: 'case',
      quantity_ordered: '4.000', quantity_delivered: '0.000', revenue: '96.00', cost: '0.00', margin: '0.00',
      uncosted_revenue: '96.00', lines: 1,
      daily: [day('2026-11-22'), day('2026-11-23'), day('2026-11-24', '96.00', '4.000')],
    });
    return s;
  };

  it('never puts cases on the axis of gallons', () => {
    const groups = byUnit(toChartData(withDef()).products);
    expect(groups.map((g) => [g.label, g.products.map((p) => p.code)])).toEqual([
      ['gallons', ['ULSD', 'UNL']],
      ['cases', ['DEF-2X25']],
    ]);
  });

  it('draws a chart only once its box leaves room for the drawing area', () => {
    expect(chartWidth(0, 104)).toBeNull(); // not measured yet
    expect(chartWidth(120, 104)).toBeNull(); // the axes alone fill it: the drawing area would be negative
    expect(chartWidth(480.6, 104)).toBe(480);
  });

  it('gives each unit its own chart on the page', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ status_code: 200, message: 'ok', data: withDef() })));
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    expect(await screen.findByTestId('quantity-chart-gallon')).toHaveTextContent('In gallons');
    expect(screen.getByTestId('quantity-chart-case')).toHaveTextContent('In cases');
  });
});

describe('dashboard page', () => {
  it('asks for 7 days by default and shows the tiles and products', async () => {
    const fetch = vi.fn(async () => json({ status_code: 200, message: 'ok', data: summary() }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    const open = await screen.findByTestId('kpi-open');
    expect(open).toHaveTextContent('4');
    expect(within(open).getByText('Verified 3')).toBeInTheDocument();
    expect(within(open).queryByText('Assigned 0')).toBeNull();
    expect(screen.getByTestId('kpi-today')).toHaveTextContent('2 of 5');
    expect(screen.getByTestId('kpi-late')).toHaveTextContent('2');
    expect(screen.getByTestId('kpi-revenue')).toHaveTextContent('$5,100');
    const table = screen.getByRole('table', { name: 'Product summary' });
    expect(within(table).getByText('Clear Diesel')).toBeInTheDocument();
    expect(within(table).getByText('no cost')).toBeInTheDocument();
    const url = urlOf((fetch.mock.calls as unknown as [RequestInfo][])[0][0]);
    expect(url).toContain('/api/dashboard/product_summary?days=7&force_refresh=false');
  });

  it('shares identical requests in flight', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const fetch = vi.fn(async () => {
      await gate;
      return json({ status_code: 200, message: 'ok', data: summary() });
    });
    vi.stubGlobal('fetch', fetch);
    function Probe({ id }: { id: string }) {
      const q = useProductSummaryQuery({ days: 7, force_refresh: false });
      return <span data-testid={id}>{q.data ? 'loaded' : 'waiting'}</span>;
    }
    renderWithProviders(
      <>
        <Probe id="a" />
        <Probe id="b" />
      </>,
    );
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    release();
    await waitFor(() => expect(screen.getByTestId('b')).toHaveTextContent('loaded'));
    expect(screen.getByTestId('a')).toHaveTextContent('loaded');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shows the empty state for a company without sales', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ status_code: 200, message: 'ok', data: summary({ products: [], totals: { revenue: '0.00', cost: '0.00', margin: '0.00', uncosted_revenue: '0.00', lines: 0 } }) })));
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    expect(await screen.findByTestId('product-summary-empty')).toHaveTextContent('No sales in these 7 days');
    expect(screen.getByRole('link', { name: 'Take a first order' })).toHaveAttribute('href', '/sales-order/new');
  });

  it("toasts 'Failed to fetch product summary data' when the server fails", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ detail: 'boom' }, 500)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    await waitFor(() => expect(toastError).toHaveBeenCalledWith(MSG_FETCH));
    expect(screen.getByRole('alert')).toHaveTextContent(MSG_FETCH);
  });

  it("toasts 'Failed to process product summary data' for an answer it cannot read", async () => {
    const broken = summary();
    broken.products[0].margin = 'n/a';
    vi.stubGlobal('fetch', vi.fn(async () => json({ status_code: 200, message: 'ok', data: broken })));
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    await waitFor(() => expect(toastError).toHaveBeenCalledWith(MSG_PROCESS));
  });
});
