import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jwtExpiringIn } from '@/testing/jwt';
import { renderWithProviders } from '@/testing/render';
import RoutePlanPage from './RoutePlanPage';
import type { PlanBody, RoutePlan } from './routingApi';

type Visit = PlanBody['routes'][number]['visits'][number];
const visit = (over: Partial<Visit>): Visit => ({ kind: 'stop', ref: 1, label: '', arrival: '', departure: '', arrival_s: 0, departure_s: 0, late_min: 0, gallons: 0, fixed: false, in_delivery: false, ...over });
const yard = (kind: 'start' | 'end', at: number) => visit({ kind, ref: 3, label: 'Houston Yard', lat: 29.76, lng: -95.36, arrival_s: at, departure_s: at });
const body: PlanBody = {
  routes: [
    {
      truck_id: 7, truck_number: 'T-101', driver_id: 4, driver_name: 'Dave Driver', miles: 84.2, hours: 6.5, utilization: 0.91, stops: 2,
      loads: [{ terminal_id: 40, terminal_name: 'Galena Park Terminal', gallons: 3600, compartments: [{ compartment: 0, product: 'ULSD', gallons: 3000 }, { compartment: 1, product: 'UNL87', gallons: 600 }] }],
      visits: [
        yard('start', 21600),
        visit({ ref: 101, label: 'SO-000101 · Pad 4', order_number: 'SO-000101', customer_name: 'Gulf Freight', lat: 29.8, lng: -95.4, arrival_s: 25200, departure_s: 26100, window: '07:00–12:00', window_slack_min: 180, gallons: 2400 }),
        visit({ ref: 102, label: 'SO-000102 · Yard B', order_number: 'SO-000102', customer_name: 'Alamo Aggregates', lat: 29.9, lng: -95.3, arrival_s: 45000, departure_s: 45900, window: '08:00–12:00', window_slack_min: 0, late_min: 30, gallons: 1200 }),
        yard('end', 50000),
      ],
    },
  ],
  unplanned: [{ stop_id: 103, order_number: 'SO-000103', customer_name: 'Brazos Farms', reason: 'No truck carries DEF', in_delivery: false }],
  totals: { miles: 84.2, hours: 6.5, trucks_used: 1, late_stops: 1, cost: 400, stops: 2, unplanned: 1, keep_full: 0 },
  solver: 'pyvrp', elapsed_s: 10, complete: true, violations: ['stop 102: arrives after its window (45000 > 43200)'],
};
const current: PlanBody = { ...body, routes: [], unplanned: [], violations: [], totals: { miles: 120.5, hours: 8, trucks_used: 2, late_stops: 0, cost: 600, stops: 2, unplanned: 0, keep_full: 0 } };
const plan: RoutePlan = {
  id: 5, planned_date: '2026-12-07', status: 'ready', seconds: 10, progress: 1, best_cost: 400, stop_requested: false, error: '', job_id: 9,
  plan: body, current, difference: null, left_out: [{ kind: 'truck', ref: 8, label: 'T-104', reason: 'No driver has a shift on this truck on Monday.' }],
  created_at: '2026-12-06T10:00:00Z', started_at: null, finished_at: null, accepted_at: null,
};

const json = (b: unknown, status = 200) => new Response(JSON.stringify(b), { status, headers: { 'Content-Type': 'application/json' } });
const calls: { method: string; url: string; body: unknown }[] = [];
function serve(shown: RoutePlan = plan) {
  calls.length = 0;
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input as Request;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : req.url;
    const method = (init?.method ?? req.method ?? 'GET').toUpperCase();
    const text = method === 'GET' ? '' : typeof init?.body === 'string' ? init.body : await req.clone().text();
    calls.push({ method, url, body: text ? JSON.parse(text) : null });
    if (url.includes('/api/route-plan/5/accept')) return json({ status_code: 200, message: 'Plan accepted: 2 order(s) assigned on 1 truck(s)', data: { plan: { ...plan, status: 'accepted' }, assigned: 2, kept_in_delivery: 0, keep_full_orders: 0, trucks: [7] } });
    if (url.includes('/api/route-plan/5')) return json({ status_code: 200, message: 'ok', data: shown });
    if (url.includes('/api/route-plan')) return json({ status_code: 200, message: 'ok', data: { items: [shown] } });
    if (url.includes('/api/routing-settings')) return json({ status_code: 200, message: 'ok', data: { map_tile_url: '', map_style_url: '' } });
    if (url.includes('/api/terminal/all')) return json({ status_code: 200, message: 'ok', data: [] });
    return json({ detail: 'Not found' }, 404);
  }));
}

afterEach(() => vi.unstubAllGlobals());

describe('Plan the day: the proposal beside the current plan', () => {
  it('shows totals against the current plan, loads, ETAs, late stops red, the reasons of what is not planned', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    serve();
    renderWithProviders(<RoutePlanPage />, { route: '/dispatch-center/plan?date=2026-12-07' });
    expect(await screen.findByTestId('plan-diff-sentence', {}, { timeout: 8000 })).toHaveTextContent('Against the current plan: 36.3 mi fewer, 1.5 h less, 1 truck fewer, 1 late stop more. 1 order is not planned (reasons below).');
    const truck = screen.getByRole('region', { name: 'Truck T-101' });
    expect(within(truck).getByText('Load 1 at Galena Park Terminal')).toBeInTheDocument();
    expect(within(truck).getByText('C1 ULSD 3,000')).toBeInTheDocument();
    expect(within(truck).getByText('91 % full')).toBeInTheDocument();
    expect(within(truck).getByTestId('plan-stop-SO-000101')).toHaveTextContent(/^1SO-000101 · Gulf FreightPad 4 · window 07:00–12:00 · 2,400 galETA 07:003 h 00 to spare$/);
    const late = within(truck).getByTestId('plan-stop-SO-000102');
    expect(late).toHaveAttribute('data-late', 'true');
    expect(late).toHaveTextContent('30 min late');
    expect(late).toHaveTextContent('arrives after its window');
    expect(screen.getByTestId('plan-unplanned-SO-000103')).toHaveTextContent('No truck carries DEF');
    expect(screen.getByTestId('plan-left-out')).toHaveTextContent('T-104: No driver has a shift on this truck on Monday.');
    expect(screen.getByRole('img', { name: 'Map of the proposed plan: 1 route' })).toBeInTheDocument();
  });

  it('accepts one truck with its id only, and marks it accepted', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    serve();
    renderWithProviders(<RoutePlanPage />, { route: '/dispatch-center/plan?date=2026-12-07' });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept T-101' }, { timeout: 8000 }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/route-plan/5/accept'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/accept'))!.body).toEqual({ truck_ids: [7] });
    expect(await within(screen.getByRole('region', { name: 'Truck T-101' })).findByText('Accepted')).toBeInTheDocument();
  });

  it('shows a keep-full stop with its chip, tank and gallons, the due tanks not taken apart, an in-delivery stop locked', async () => {
    const tank = { asset_id: 31, asset_name: 'North tank', customer_id: 2, customer_name: 'Brazos Farms', ship_to_id: 9, ship_to_name: 'Farm 2', product: 'ULSD', gallons: 450, suggested_date: '2026-12-08', runout_date: '2026-12-12', risk: 0.3, prize: 121.5 };
    const r0 = body.routes[0];
    const withTank: PlanBody = {
      ...body,
      routes: [{
        ...r0,
        visits: [
          r0.visits[0],
          { ...r0.visits[1], fixed: true, in_delivery: true },
          visit({ ref: 'tank:31', label: 'Keep-full · North tank · Farm 2', customer_name: 'Brazos Farms', lat: 29.85, lng: -95.35, arrival_s: 30000, departure_s: 31000, gallons: 450, keep_full: tank }),
          ...r0.visits.slice(2),
        ],
      }],
      unplanned: [{ ...body.unplanned[0], in_delivery: true }],
      keep_full_not_taken: [{ ...tank, asset_id: 32, asset_name: 'Far tank', stop_id: 'tank:32', reason: 'Not on the way today (optional: not worth the detour)' }],
      totals: { ...body.totals, keep_full: 1 },
    };
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    serve({ ...plan, plan: withTank });
    renderWithProviders(<RoutePlanPage />, { route: '/dispatch-center/plan?date=2026-12-07' });
    const truck = await screen.findByRole('region', { name: 'Truck T-101' }, { timeout: 8000 });
    const kf = within(truck).getByTestId('plan-stop-tank:31');
    expect(kf).toHaveAttribute('data-keep-full', 'true');
    expect(within(kf).getByTestId('keep-full-chip')).toHaveTextContent('Keep-full');
    expect(kf).toHaveTextContent('North tank · Brazos Farms');
    expect(kf).toHaveTextContent('Farm 2 · 450 gal ULSD · due Dec 8 · 30 % risk');
    const locked = within(truck).getByTestId('plan-stop-SO-000101');
    expect(locked).toHaveAttribute('data-fixed', 'true');
    expect(within(locked).getByLabelText('In delivery: stays on this truck')).toBeInTheDocument();
    const skipped = screen.getByRole('region', { name: 'Keep-full tanks not on the way' });
    const toggle = within(skipped).getByRole('button', { name: 'Keep-full tanks not on the way (1)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await within(skipped).findByTestId('plan-keep-full-tank:32')).toHaveTextContent('Far tank · Brazos Farms');
    const stuck = screen.getByTestId('plan-unplanned-SO-000103');
    expect(stuck).toHaveAttribute('data-fixed', 'true');
    expect(within(stuck).getByLabelText('In delivery: stays on this truck')).toBeInTheDocument();
    // Optional tanks are not orders left unplanned.
    expect(screen.queryByTestId('plan-unplanned-tank:32')).toBeNull();
    // The map rings the same stops (the plain drawing: no tiles configured here).
    const drawing = screen.getByTestId('route-drawing');
    expect(drawing.querySelectorAll('g[data-kind="stop"][data-in-delivery="true"]').length).toBeGreaterThanOrEqual(1);
    expect(drawing.querySelectorAll('g[data-kind="stop"][data-keep-full="true"]')).toHaveLength(1);
  });
});
