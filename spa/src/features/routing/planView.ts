/**
 * What the plan screens render: the server's plan (a proposal, or an evaluated adjustment) read into
 * rows the cards, the summary and the map show. The payload types come from the generated client
 * (routingApi.ts); this is the screen's own shape, built by `toPlanView`.
 */
import type { Totals } from './planFormat';

/** An order's id, or "tank:<id>" for a keep-full top-up (an optional stop with no order yet). */
export type StopId = number | string;

/** The keep-full tank behind an optional stop: what topping it up today brings. */
export interface KeepFullInfo {
  assetId: number;
  tank: string;
  customer: string;
  shipTo: string;
  product: string;
  gallons: number;
  /** ISO date the forecast suggests delivering, or null. */
  due: string | null;
  /** 0..1: the chance the tank runs out before then. */
  risk: number;
}

export interface StopInfo {
  id: StopId;
  /** The order's number (SO-000123). */
  number: string;
  customer: string;
  place: string;
  lat: number | null;
  lng: number | null;
  /** "08:00–10:00" or ''. */
  window: string;
  /** "3,000 ULSD, 2,500 REG". */
  quantities: string;
  /** Already in delivery: the planner keeps it where it is and nobody moves it. */
  fixed: boolean;
  /** A keep-full top-up (optional): the tank, its gallons and due date. */
  keepFull?: KeepFullInfo | null;
}

export const isTankStop = (id: StopId): id is string => typeof id === 'string' && id.startsWith('tank:');

export interface VisitRow {
  key: string;
  kind: 'start' | 'stop' | 'reload' | 'end';
  label: string;
  lat: number | null;
  lng: number | null;
  arrival_s: number;
  departure_s: number;
  window_slack_s: number | null;
  late_s: number;
  stop: StopInfo | null;
  /** The evaluator's objections to this visit (over capacity, shift exceeded...). */
  problems: string[];
}

export interface CompartmentLoad {
  index: number;
  product: string;
  gallons: number;
}

export interface LoadRow {
  terminal: string;
  compartments: CompartmentLoad[];
}

export interface RouteRow {
  truck_id: number;
  truck: string;
  driver: string | null;
  visits: VisitRow[];
  loads: LoadRow[];
  miles: number;
  hours: number;
  /** 0..1 of the truck's gallons carried (over all its loads). */
  utilization: number;
  /** Problems of the route as a whole (shift, duty hours, a compartment over capacity...). */
  problems: string[];
}

export interface UnplannedRow {
  stop: StopInfo;
  reason: string;
}

export interface PlanView {
  routes: RouteRow[];
  unplanned: UnplannedRow[];
  /** Due keep-full tanks the planner left off (optional: not a failure). */
  keepFullSkipped?: UnplannedRow[];
  totals: Totals;
  current: Totals | null;
  /** Yards and terminals, for the map. */
  places: { key: string; kind: 'yard' | 'terminal'; label: string; lat: number | null; lng: number | null }[];
}

export const lateStops = (r: RouteRow) => r.visits.filter((v) => v.kind === 'stop' && v.late_s > 0).length;
export const infeasible = (r: RouteRow) => r.problems.length > 0 || r.visits.some((v) => v.problems.length > 0 || v.late_s > 0);

/**
 * The plan as the dispatcher just arranged it, before the evaluator answers: each truck's stops in
 * the new order (their last known ETAs, shown faded), stops taken off every truck listed as not
 * planned, orders put on a truck gone from that list. Reload visits wait for the evaluator.
 */
export function arrange(view: PlanView, layout: readonly { truck_id: number; stop_ids: readonly StopId[] }[]): PlanView {
  const visits = new Map<StopId, VisitRow>();
  for (const r of view.routes) for (const v of r.visits) if (v.kind === 'stop' && v.stop) visits.set(v.stop.id, v);
  const loose = new Map([...view.unplanned, ...(view.keepFullSkipped ?? [])].map((u) => [u.stop.id, u]));
  const placed = new Set(layout.flatMap((t) => t.stop_ids));
  const routes = view.routes.map((r) => {
    const ids = layout.find((t) => t.truck_id === r.truck_id)?.stop_ids ?? [];
    const stops = ids.flatMap((id): VisitRow[] => {
      const known = visits.get(id);
      if (known) return [known];
      const u = loose.get(id);
      if (!u) return [];
      return [{ key: `stop-${id}`, kind: 'stop', label: u.stop.customer, lat: u.stop.lat, lng: u.stop.lng, arrival_s: NaN, departure_s: NaN, window_slack_s: null, late_s: 0, stop: u.stop, problems: [] }];
    });
    const start = r.visits.filter((v) => v.kind === 'start');
    const end = r.visits.filter((v) => v.kind === 'end');
    return { ...r, visits: [...start, ...stops, ...end] };
  });
  const removed = [...visits.values()].filter((v) => !placed.has(v.stop!.id)).map((v) => ({ stop: v.stop!, reason: 'Taken off its truck by you' }));
  const skipped = view.keepFullSkipped ?? [];
  return {
    ...view,
    routes,
    unplanned: [...view.unplanned.filter((u) => !placed.has(u.stop.id)), ...removed.filter((u) => !isTankStop(u.stop.id))],
    keepFullSkipped: [...skipped.filter((u) => !placed.has(u.stop.id)), ...removed.filter((u) => isTankStop(u.stop.id))],
  };
}
