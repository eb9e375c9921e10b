/**
 * The forecast screens' own rules, pure (tested in model.test.ts): which due rows can be picked,
 * the order request built from a selection, the chart's series built from a tank's answer, and how
 * a fit is said.
 */
import type { Confidence, CreateOrdersBody, CreatedOrders, DueRow, TankForecast, TankSettings, TankSettingsUpdate, UsageFitOut } from './types';

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

export function confidenceColor(c: string): 'success' | 'warning' | 'error' | 'default' {
  return (CONFIDENCE_COLOR as Record<string, 'success' | 'warning' | 'error'>)[c] ?? 'default';
}

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

/** One line per created order (with the price warning, if the engine could not price it). */
export interface Outcome {
  asset_id: number;
  tank: string;
  customer: string;
  order_id: number;
  number: string;
  quantity: string;
  planned_date: string;
  price_error: string;
}

export function outcomes(result: CreatedOrders, rows: readonly DueRow[]): Outcome[] {
  const byId = new Map(rows.map((r) => [r.asset_id, r]));
  return result.orders.map((o) => ({
    asset_id: o.asset_id,
    tank: byId.get(o.asset_id)?.asset_name ?? `Tank #${o.asset_id}`,
    customer: byId.get(o.asset_id)?.customer_name ?? '',
    order_id: o.sales_order_id,
    number: o.number,
    quantity: gallons(o.quantity),
    planned_date: o.planned_date,
    price_error: o.price_error ?? '',
  }));
}

/**
 * The tank a refused "Create orders" names (the server creates all or none): `tanks[i]` is the
 * i-th tank of the request; a 409 names the tank by its name. Null when the sentence names none.
 */
export function refusedTank(detail: string, body: CreateOrdersBody, rows: readonly DueRow[]): number | null {
  const m = /tanks\[(\d+)\]/.exec(detail);
  if (m) return body.tanks[Number(m[1])]?.asset_id ?? null;
  const picked = new Set(body.tanks.map((t) => t.asset_id));
  const named = rows
    .filter((r) => picked.has(r.asset_id) && r.asset_name && detail.startsWith(`${r.asset_name} `))
    .sort((a, b) => b.asset_name.length - a.asset_name.length);
  return named[0]?.asset_id ?? null;
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
  const proj = [...tank.projection].sort((a, b) => a.day.localeCompare(b.day));
  const history = [...tank.history].sort((a, b) => a.at.localeCompare(b.at));
  const usable = num(tank.usable_gallons);
  const reorder = num(tank.reorder_gallons);
  const runout = tank.runout_date ?? null;
  const all = [...history.map((h) => h.at.slice(0, 10)), ...proj.map((p) => p.day)].sort();
  const last = all.length ? all[all.length - 1] : null;
  if (!last) return { days: [], readings: [], deliveries: [], deliveredGallons: [], level: [], low: [], bandWidth: [], reorder, usable, runout, yMax: usable ?? 0 };
  const anchor = proj.length ? proj[0].day : last;
  const floor = addDays(anchor, -historyDays);
  let first = all.find((d) => d >= floor) ?? anchor;
  if (first > anchor) first = anchor;
  const days: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  const index = new Map(days.map((d, i) => [d, i]));
  const empty = () => days.map(() => null as number | null);
  const readings = empty();
  const deliveries = empty();
  const deliveredGallons = empty();
  for (const h of history) {
    const i = index.get(h.at.slice(0, 10));
    if (i === undefined) continue;
    if (h.kind === 'reading') {
      readings[i] = num(h.level_gallons);
    } else {
      deliveredGallons[i] = (deliveredGallons[i] ?? 0) + (num(h.gallons_delivered) ?? 0);
      // The marker sits on the level after the fill when known, else on the usable line.
      deliveries[i] = num(h.level_gallons) ?? usable ?? num(h.gallons_delivered);
    }
  }
  const level = empty();
  const low = empty();
  const bandWidth = empty();
  // With no delivery in the projection the level cannot rise: the band's top is held at the level
  // it starts from (and at the usable capacity), its bottom at empty.
  const start = proj.length ? num(proj[0].level) : null;
  const ceiling = Math.min(start ?? Infinity, usable ?? Infinity);
  for (const p of proj) {
    const i = index.get(p.day);
    if (i === undefined) continue;
    const rawLo = num(p.low);
    const rawHi = num(p.high);
    const lo = rawLo === null ? null : Math.max(0, Math.min(rawLo, ceiling));
    const hi = rawHi === null ? null : Math.max(0, Math.min(rawHi, ceiling));
    level[i] = num(p.level);
    low[i] = lo;
    bandWidth[i] = lo !== null && hi !== null ? Math.max(0, hi - lo) : null;
  }
  const values = [...readings, ...deliveries, ...level, usable, num(tank.tank.capacity)].filter((v): v is number => v !== null);
  return { days, readings, deliveries, deliveredGallons, level, low, bandWidth, reorder, usable, runout, yMax: values.length ? Math.max(...values) : 0 };
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

function range(a: number | null | undefined, b: number | null | undefined, digits: number): [string | null, string | null] {
  if (a === null || a === undefined || b === null || b === undefined) return [null, null];
  return [fixed(Math.min(a, b), digits), fixed(Math.max(a, b), digits)];
}

/** The 90 % interval the server gives (`k_range` ...), else the span of the low and high fits. */
function interval(given: readonly number[] | null | undefined, low: number | null | undefined, high: number | null | undefined, digits: number): [string | null, string | null] {
  if (given && given.length === 2) return range(given[0], given[1], digits);
  return range(low, high, digits);
}

/** How the fitted usage is said: the parameters with their interval and what they rest on. */
export function fitLines(fit: UsageFitOut | null | undefined): Array<{ label: string; value: string }> {
  if (!fit) return [];
  const lines: Array<{ label: string; value: string }> = [];
  if (fit.model === 'weather') {
    lines.push({ label: 'K-factor (degree days per gallon)', value: withRange(fixed(fit.k_factor, 2), ...interval(fit.k_range, fit.low?.k_factor, fit.high?.k_factor, 2)) });
    lines.push({ label: 'Baseload (gallons per day)', value: withRange(fixed(fit.baseload, 2), ...interval(fit.baseload_range, fit.low?.baseload, fit.high?.baseload, 2)) });
  } else {
    lines.push({ label: 'Usage (gallons per day)', value: withRange(fixed(fit.daily_rate, 1), ...interval(fit.rate_range, fit.low?.daily_rate, fit.high?.daily_rate, 1)) });
  }
  const n = fit.n_intervals ?? 0;
  lines.push({
    label: 'Rests on',
    value: fit.overridden ? 'Set by the office (override)' : n === 0 ? 'No fills yet: typical values for this kind of tank' : `${n} ${n === 1 ? 'fill' : 'fills'}`,
  });
  return lines;
}

// --- settings --------------------------------------------------------------------------------

/**
 * PUT /forecast/tank/{id}/settings replaces every setting (a field left out takes its default),
 * so a form that changes some sends the others as they are.
 */
export function settingsBody(s: TankSettings, patch: Partial<TankSettingsUpdate> = {}): TankSettingsUpdate {
  return {
    program: s.program as TankSettingsUpdate['program'],
    usage_model: s.usage_model as TankSettingsUpdate['usage_model'],
    usage_type: s.usage_type,
    max_fill_percent: s.max_fill_percent,
    reorder_percent: s.reorder_percent ?? null,
    reorder_gallons: s.reorder_gallons ?? null,
    zone_id: s.zone?.id ?? null,
    k_factor_override: s.k_factor_override ?? null,
    baseload_override: s.baseload_override ?? null,
    daily_rate_override: s.daily_rate_override ?? null,
    ...patch,
  };
}
