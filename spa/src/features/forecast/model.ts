/**
 * The forecast screens' own rules, pure (tested in model.test.ts): which due rows can be picked,
 * the order request built from a selection, the chart's series built from a tank's answer, and how
 * a fit is said.
 */
import type { Confidence, CreateOrdersBody, CreatedOrders, DueRow, TankForecast, UsageFitOut } from './types';

export const WITHIN_CHOICES = [3, 7, 14] as const;
export const DEFAULT_WITHIN = 7;

/** A number out of the API's decimal strings (null when absent or not a number). */
export function num(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Whole gallons with thousands separators ('1,234 gal'), or an em dash. */
export function gallons(v: string | number | null | undefined): string {
  const n = num(v);
  return n === null ? '—' : `${Math.round(n).toLocaleString('en-US')} gal`;
}

export function percent(v: string | number | null | undefined): string {
  const n = num(v);
  return n === null ? '—' : `${Math.round(n)}%`;
}

/** 'Mon, Dec 7' from '2026-12-07' (the day as written, no time zone shift). */
export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
}

/** The run-out day with its interval: 'Dec 9 (Dec 8 – Dec 11)'. */
export function runoutText(row: Pick<DueRow, 'runout_date' | 'runout_early' | 'runout_late'>): string {
  if (!row.runout_date) return 'Not within the horizon';
  const early = row.runout_early && row.runout_early !== row.runout_date ? day(row.runout_early) : null;
  const late = row.runout_late && row.runout_late !== row.runout_date ? day(row.runout_late) : null;
  if (!early && !late) return day(row.runout_date);
  return `${day(row.runout_date)} (${early ?? day(row.runout_date)} – ${late ?? day(row.runout_date)})`;
}

export const CONFIDENCE_COLOR: Record<Confidence, 'success' | 'warning' | 'error'> = { high: 'success', medium: 'warning', low: 'error' };

// --- selection -------------------------------------------------------------------------------

/** A tank with an open order shows that order instead of a checkbox: it cannot be picked again. */
export function isSelectable(row: Pick<DueRow, 'open_order_id'>): boolean {
  return row.open_order_id === null || row.open_order_id === undefined;
}

export function toggle(selected: ReadonlySet<number>, row: DueRow): Set<number> {
  const next = new Set(selected);
  if (!isSelectable(row)) {
    next.delete(row.asset_id);
    return next;
  }
  if (next.has(row.asset_id)) next.delete(row.asset_id);
  else next.add(row.asset_id);
  return next;
}

/** The header checkbox: every selectable row, or none when all of them are already picked. */
export function toggleAll(selected: ReadonlySet<number>, rows: readonly DueRow[]): Set<number> {
  const pickable = rows.filter(isSelectable).map((r) => r.asset_id);
  const all = pickable.length > 0 && pickable.every((id) => selected.has(id));
  return all ? new Set() : new Set(pickable);
}

/** What is still selected once the list changed (a row gone, or now with an open order). */
export function prune(selected: ReadonlySet<number>, rows: readonly DueRow[]): Set<number> {
  const ok = new Set(rows.filter(isSelectable).map((r) => r.asset_id));
  return new Set([...selected].filter((id) => ok.has(id)));
}

/** The request of "Create orders": each picked tank on its suggested day with its suggested gallons. */
export function ordersBody(rows: readonly DueRow[], selected: ReadonlySet<number>): CreateOrdersBody {
  return {
    tanks: rows
      .filter((r) => selected.has(r.asset_id) && isSelectable(r))
      .map((r) => {
        const q = num(r.suggested_gallons);
        return { asset_id: r.asset_id, planned_date: r.suggested_date, ...(q !== null ? { quantity: String(Math.round(q)) } : {}) };
      }),
  };
}

/** One line per tank of the outcome: created (with its order) or refused (with the reason). */
export interface Outcome {
  asset_id: number;
  tank: string;
  customer: string;
  order_id?: number;
  order_number?: string | null;
  detail?: string;
}

export function outcomes(result: CreatedOrders, rows: readonly DueRow[]): Outcome[] {
  const byId = new Map(rows.map((r) => [r.asset_id, r]));
  const name = (id: number) => ({ tank: byId.get(id)?.asset_name ?? `Tank #${id}`, customer: byId.get(id)?.customer_name ?? '' });
  return [
    ...result.created.map((c) => ({ asset_id: c.asset_id, ...name(c.asset_id), order_id: c.order_id, order_number: c.order_number })),
    ...result.errors.map((e) => ({ asset_id: e.asset_id, ...name(e.asset_id), detail: e.detail })),
  ];
}

// --- the tank's chart ------------------------------------------------------------------------

export interface ChartSeries {
  /** Every day from the first reading or delivery to the end of the projection, ISO. */
  days: string[];
  /** Readings (gallons) on their days, null elsewhere (drawn as points). */
  readings: Array<number | null>;
  /** Deliveries: the gallons delivered, on their days (drawn as markers on the level after it). */
  deliveries: Array<number | null>;
  deliveredGallons: Array<number | null>;
  /** The projected level, and its band (low, and high − low stacked on it). */
  level: Array<number | null>;
  low: Array<number | null>;
  bandWidth: Array<number | null>;
  reorder: number | null;
  usable: number | null;
  runout: string | null;
  yMax: number;
}

function addDays(iso: string, n: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The chart's series from GET /forecast/tank/{id}: one x value per day; the history (readings as
 * points, deliveries as markers) before the projection's line and band. Several readings on one
 * day keep the last one. History older than `historyDays` before the projection is left out.
 */
export function chartSeries(tank: TankForecast, historyDays = 120): ChartSeries {
  const proj = [...tank.projection].sort((a, b) => a.date.localeCompare(b.date));
  const readingDays = tank.readings.map((r) => r.taken_at.slice(0, 10));
  const deliveryDays = tank.deliveries.map((d) => d.delivered_on.slice(0, 10));
  const all = [...readingDays, ...deliveryDays, ...proj.map((p) => p.date)].sort();
  const last = all.length ? all[all.length - 1] : null;
  if (!last) {
    return { days: [], readings: [], deliveries: [], deliveredGallons: [], level: [], low: [], bandWidth: [], reorder: num(tank.reorder_gallons), usable: num(tank.usable_gallons), runout: tank.runout_date ?? null, yMax: num(tank.usable_gallons) ?? 0 };
  }
  const anchor = proj.length ? proj[0].date : last;
  const floor = addDays(anchor, -historyDays);
  let first = all.find((d) => d >= floor) ?? anchor;
  if (first > anchor) first = anchor;
  const days: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  const index = new Map(days.map((d, i) => [d, i]));
  const empty = () => days.map(() => null as number | null);
  const readings = empty();
  [...tank.readings].sort((a, b) => a.taken_at.localeCompare(b.taken_at)).forEach((r) => {
    const i = index.get(r.taken_at.slice(0, 10));
    if (i !== undefined) readings[i] = num(r.gallons);
  });
  const deliveries = empty();
  const deliveredGallons = empty();
  tank.deliveries.forEach((d) => {
    const i = index.get(d.delivered_on.slice(0, 10));
    if (i === undefined) return;
    deliveredGallons[i] = (deliveredGallons[i] ?? 0) + (num(d.gallons) ?? 0);
    // The marker sits on the level known that day (a reading), else at the top of the band's scale.
    deliveries[i] = readings[i] ?? num(tank.usable_gallons) ?? num(d.gallons);
  });
  const level = empty();
  const low = empty();
  const bandWidth = empty();
  proj.forEach((p) => {
    const i = index.get(p.date);
    if (i === undefined) return;
    const lv = num(p.level);
    const lo = num(p.low);
    const hi = num(p.high);
    level[i] = lv;
    low[i] = lo;
    bandWidth[i] = lo !== null && hi !== null ? Math.max(0, hi - lo) : null;
  });
  const values = [...readings, ...deliveries, ...level, ...proj.map((p) => num(p.high)), num(tank.usable_gallons), num(tank.capacity_gallons)].filter((v): v is number => v !== null);
  const yMax = values.length ? Math.max(...values) : 0;
  return { days, readings, deliveries, deliveredGallons, level, low, bandWidth, reorder: num(tank.reorder_gallons), usable: num(tank.usable_gallons), runout: tank.runout_date ?? null, yMax };
}

// --- the fit ---------------------------------------------------------------------------------

function fixed(v: string | number | null | undefined, digits: number): string | null {
  const n = num(v);
  return n === null ? null : n.toFixed(digits);
}

function withRange(value: string | null, low: string | null, high: string | null): string {
  if (value === null) return '—';
  return low !== null && high !== null ? `${value} (${low} – ${high})` : value;
}

/** How the fitted usage is said: the parameters with their interval and what they rest on. */
export function fitLines(fit: UsageFitOut | null): Array<{ label: string; value: string }> {
  if (!fit) return [];
  const lines: Array<{ label: string; value: string }> = [];
  if (fit.model === 'weather') {
    lines.push({ label: 'K-factor (degree days per gallon)', value: withRange(fixed(fit.k_factor, 2), fixed(fit.k_factor_low, 2), fixed(fit.k_factor_high, 2)) });
    lines.push({ label: 'Baseload (gallons per day)', value: withRange(fixed(fit.baseload, 2), fixed(fit.baseload_low, 2), fixed(fit.baseload_high, 2)) });
  } else {
    lines.push({ label: 'Usage (gallons per day)', value: withRange(fixed(fit.daily_rate, 1), fixed(fit.daily_rate_low, 1), fixed(fit.daily_rate_high, 1)) });
  }
  const n = fit.n_intervals;
  lines.push({
    label: 'Rests on',
    value: fit.overridden ? 'Set by the office (override)' : n === 0 ? 'No fills yet: typical values for this kind of tank' : `${n} ${n === 1 ? 'fill' : 'fills'}`,
  });
  return lines;
}
