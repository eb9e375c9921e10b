import { createResourceApi } from '@/components/resource';
import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData, ApiQuery, PageItem } from '@/lib/api/types';
import { stopIdOf } from './planEdit';
import type { KeepFullInfo, PlanView, RouteRow, StopInfo, VisitRow } from './planView';

export type RoutePlan = ApiData<'/api/route-plan/{plan_id}', 'get'>;
export type PlanBody = NonNullable<RoutePlan['plan']>;
export type PlanQuery = ApiQuery<'/api/route-plan', 'get'>;
export type StartBody = ApiBody<'/api/route-plan', 'post'>;
export type EvaluateBody = ApiBody<'/api/route-plan/{plan_id}/evaluate', 'post'>;
export type AcceptBody = ApiBody<'/api/route-plan/{plan_id}/accept', 'post'>;
export type Accepted = ApiData<'/api/route-plan/{plan_id}/accept', 'post'>;
export type RoutingSettings = ApiData<'/api/routing-settings', 'get'>;
export type RoutingSettingsBody = ApiBody<'/api/routing-settings', 'put'>;
export type Terminal = ApiData<'/api/terminal/all', 'get'>[number];
export type Unit = ApiData<'/api/company-asset/all', 'get'>[number];
export type TruckRouting = PageItem<'/api/truck-routing'>;
export type TruckRoutingCreate = ApiBody<'/api/truck-routing', 'post'>;
export type TruckRoutingUpdate = ApiBody<'/api/truck-routing/{id}', 'put'>;
export type DriverShift = PageItem<'/api/driver-shift'>;
export type DriverShiftCreate = ApiBody<'/api/driver-shift', 'post'>;
export type DriverShiftUpdate = ApiBody<'/api/driver-shift/{id}', 'put'>;

// 'Dispatch', 'Board' and 'SalesOrder' are the dispatch center's tags: an accepted plan refreshes it.
const tagged = api.enhanceEndpoints({ addTagTypes: ['RoutePlan', 'RoutingSettings', 'Dispatch', 'Board', 'SalesOrder'] });
const ACCEPTED = [{ type: 'RoutePlan' as const, id: 'LIST' }, { type: 'Dispatch' as const, id: 'LIST' }, { type: 'Board' as const, id: 'LIST' }, { type: 'SalesOrder' as const, id: 'LIST' }];

export const routingApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    plans: build.query<RoutePlan[], PlanQuery>({
      query: (params) => ({ url: '/route-plan', params }),
      transformResponse: (env) => unwrap<{ items: RoutePlan[] }>(env).items,
      providesTags: [{ type: 'RoutePlan', id: 'LIST' }],
    }),
    plan: build.query<RoutePlan, number>({
      query: (id) => ({ url: `/route-plan/${id}` }),
      transformResponse: (env) => unwrap<RoutePlan>(env),
      providesTags: (_r, _e, id) => [{ type: 'RoutePlan', id }],
    }),
    startPlan: build.mutation<RoutePlan, StartBody>({
      query: (body) => ({ url: '/route-plan', method: 'POST', body }),
      transformResponse: (env) => unwrap<RoutePlan>(env),
      invalidatesTags: [{ type: 'RoutePlan', id: 'LIST' }],
    }),
    stopPlan: build.mutation<RoutePlan, number>({
      query: (id) => ({ url: `/route-plan/${id}/stop`, method: 'POST' }),
      transformResponse: (env) => unwrap<RoutePlan>(env),
      invalidatesTags: (_r, _e, id) => [{ type: 'RoutePlan', id }, { type: 'RoutePlan', id: 'LIST' }],
    }),
    evaluatePlan: build.mutation<PlanBody, { id: number; body: EvaluateBody }>({
      query: ({ id, body }) => ({ url: `/route-plan/${id}/evaluate`, method: 'POST', body }),
      transformResponse: (env) => unwrap<PlanBody>(env),
    }),
    acceptPlan: build.mutation<Accepted & { message: string }, { id: number; body: AcceptBody }>({
      query: ({ id, body }) => ({ url: `/route-plan/${id}/accept`, method: 'POST', body }),
      transformResponse: (env) => ({ ...unwrap<Accepted>(env), message: (env as { message?: string }).message ?? 'Plan accepted' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'RoutePlan', id }, ...ACCEPTED],
    }),
    routingSettings: build.query<RoutingSettings, void>({
      query: () => ({ url: '/routing-settings' }),
      transformResponse: (env) => unwrap<RoutingSettings>(env),
      providesTags: ['RoutingSettings'],
    }),
    saveRoutingSettings: build.mutation<RoutingSettings, RoutingSettingsBody>({
      query: (body) => ({ url: '/routing-settings', method: 'PUT', body }),
      transformResponse: (env) => unwrap<RoutingSettings>(env),
      invalidatesTags: ['RoutingSettings'],
    }),
    trucks: build.query<Unit[], void>({
      query: () => ({ url: '/company-asset/all' }),
      transformResponse: (env) => unwrap<Unit[]>(env),
      providesTags: [{ type: 'CompanyAsset', id: 'LIST' }],
    }),
  }),
});

export const {
  usePlansQuery,
  usePlanQuery,
  useStartPlanMutation,
  useStopPlanMutation,
  useEvaluatePlanMutation,
  useAcceptPlanMutation,
  useRoutingSettingsQuery,
  useSaveRoutingSettingsMutation,
  useTrucksQuery,
} = routingApi;

export const truckRoutingApi = createResourceApi<TruckRouting, TruckRoutingCreate, TruckRoutingUpdate>({
  key: 'truckRouting', tag: 'TruckRouting', listPath: '/truck-routing', exportPath: '/truck-routing/export', itemPath: (id) => `/truck-routing/${id}`,
});
export const driverShiftApi = createResourceApi<DriverShift, DriverShiftCreate, DriverShiftUpdate>({
  key: 'driverShift', tag: 'DriverShift', listPath: '/driver-shift', exportPath: '/driver-shift/export', itemPath: (id) => `/driver-shift/${id}`,
});

/** The map's tiles from the settings: a MapLibre style URL first, else a raster tile template. */
export const tilesOf = (s: RoutingSettings | undefined) => (s ? s.map_style_url || s.map_tile_url || null : null);

type Visit = PlanBody['routes'][number]['visits'][number];
type KeepFullOut = NonNullable<Visit['keep_full']>;
const keepFullOf = (k: KeepFullOut): KeepFullInfo => ({
  assetId: k.asset_id,
  tank: k.asset_name,
  customer: k.customer_name,
  shipTo: k.ship_to_name,
  product: k.product,
  gallons: k.gallons,
  due: k.suggested_date ?? null,
  risk: Number(k.risk ?? 0),
});
const int = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const gal = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

/**
 * The checker's findings ("truck 7: ends after the shift (...)", "stop 123: arrives after its
 * window") put on the truck or the stop they name, with the truck's and order's own names.
 */
export function placeViolations(violations: readonly string[], trucks: Map<number, string>, orders: Map<number, string>) {
  const byTruck = new Map<number, string[]>();
  const byStop = new Map<number, string[]>();
  const general: string[] = [];
  const named = (text: string) =>
    text.replace(/\btruck (\d+)\b/g, (m, id) => (trucks.has(Number(id)) ? trucks.get(Number(id))! : m)).replace(/\bstop (\d+)\b/g, (m, id) => (orders.has(Number(id)) ? orders.get(Number(id))! : m));
  for (const v of violations) {
    const stop = /^stop (\d+):/.exec(v) ?? /\bstop (\d+)\b/.exec(v);
    const truck = /^truck (\d+):/.exec(v);
    const text = named(v.replace(/^(truck|stop) \d+: /, ''));
    if (stop && orders.has(Number(stop[1]))) byStop.set(Number(stop[1]), [...(byStop.get(Number(stop[1])) ?? []), text]);
    else if (truck && trucks.has(Number(truck[1]))) byTruck.set(Number(truck[1]), [...(byTruck.get(Number(truck[1])) ?? []), text]);
    else general.push(named(v));
  }
  return { byTruck, byStop, general };
}

/** The server's plan (or an evaluated adjustment) read into the screen's rows. */
export function toPlanView(body: PlanBody, current: PlanBody | null, terminals: readonly Terminal[] = []): PlanView & { general: string[] } {
  const terminalAt = new Map(terminals.map((t) => [t.id, t]));
  const trucks = new Map(body.routes.filter((r) => typeof r.truck_id === 'number').map((r) => [r.truck_id as number, r.truck_number]));
  const orders = new Map<number, string>();
  for (const r of body.routes) for (const v of r.visits) if (v.kind === 'stop' && typeof v.ref === 'number' && v.order_number) orders.set(v.ref, v.order_number);
  for (const u of body.unplanned) if (typeof u.stop_id === 'number' && u.order_number) orders.set(u.stop_id, u.order_number);
  const found = placeViolations(body.violations ?? [], trucks, orders);
  const stopInfo = (v: Visit): StopInfo => ({
    id: stopIdOf(v.ref),
    number: v.order_number ?? String(v.ref),
    customer: v.customer_name ?? v.label,
    place: v.label.includes(' · ') ? v.label.split(' · ').slice(1).join(' · ') : '',
    lat: v.lat ?? null,
    lng: v.lng ?? null,
    window: v.window ?? '',
    quantities: v.gallons ? `${gal(v.gallons)} gal` : '',
    fixed: Boolean(v.fixed || v.in_delivery),
    keepFull: v.keep_full ? keepFullOf(v.keep_full) : null,
  });
  const routes: RouteRow[] = body.routes.map((r, ri) => ({
    truck_id: int(r.truck_id),
    truck: r.truck_number,
    driver: r.driver_name ?? null,
    miles: Number(r.miles),
    hours: Number(r.hours),
    utilization: Number(r.utilization),
    problems: found.byTruck.get(int(r.truck_id)) ?? [],
    loads: r.loads.map((l) => ({ terminal: l.terminal_name, compartments: l.compartments.map((c) => ({ index: c.compartment, product: c.product, gallons: c.gallons })) })),
    visits: r.visits.map((v, vi): VisitRow => {
      const terminal = v.kind === 'reload' ? terminalAt.get(int(v.ref)) : undefined;
      return {
        key: `${ri}-${vi}-${v.kind}-${v.ref}`,
        kind: v.kind as VisitRow['kind'],
        label: v.kind === 'reload' ? v.label.replace(/^Reload at /, '') : v.label,
        lat: v.lat ?? terminal?.latitude ?? null,
        lng: v.lng ?? terminal?.longitude ?? null,
        arrival_s: v.arrival_s,
        departure_s: v.departure_s,
        window_slack_s: v.window_slack_min === null || v.window_slack_min === undefined ? null : v.window_slack_min * 60,
        late_s: (v.late_min ?? 0) * 60,
        stop: v.kind === 'stop' ? stopInfo(v) : null,
        problems: v.kind === 'stop' ? (found.byStop.get(int(v.ref)) ?? []) : [],
      };
    }),
  }));
  const used = new Set(routes.flatMap((r) => r.visits.filter((v) => v.kind === 'reload').map((v) => v.label)));
  const yards = new Map<string, PlanView['places'][number]>();
  for (const r of routes) for (const v of r.visits) if ((v.kind === 'start' || v.kind === 'end') && v.lat !== null) yards.set(`yard-${v.label}`, { key: `yard-${v.label}`, kind: 'yard', label: v.label, lat: v.lat, lng: v.lng });
  return {
    routes,
    unplanned: body.unplanned.map((u) => ({
      stop: { id: int(u.stop_id), number: u.order_number ?? String(u.stop_id), customer: u.customer_name ?? '', place: '', lat: null, lng: null, window: '', quantities: '', fixed: Boolean(u.in_delivery) },
      reason: u.reason,
    })),
    keepFullSkipped: (body.keep_full_not_taken ?? []).map((k) => ({
      stop: {
        id: k.stop_id,
        number: k.asset_name,
        customer: k.customer_name,
        place: k.ship_to_name,
        lat: null,
        lng: null,
        window: '',
        quantities: `${gal(k.gallons)} gal`,
        fixed: false,
        keepFull: keepFullOf(k),
      },
      reason: k.reason,
    })),
    totals: body.totals,
    current: current ? current.totals : null,
    places: [
      ...yards.values(),
      ...terminals.filter((t) => used.has(t.name)).map((t) => ({ key: `terminal-${t.id}`, kind: 'terminal' as const, label: t.name, lat: t.latitude ?? null, lng: t.longitude ?? null })),
    ],
    general: found.general,
  };
}
