import type { ProductSummary } from './dashboardApi';

/** What the charts and tiles draw: the server's decimal strings as numbers, series per product. */
export interface ChartProduct {
  id: number;
  name: string;
  code: string;
  soldAs: string;
  ordered: number;
  delivered: number;
  revenue: number;
  margin: number;
  uncosted: number;
  /** Margin over the revenue it was computed on (null when no line of the product has a cost). */
  marginPct: number | null;
  revenueByDay: number[];
  orderedByDay: number[];
}

export interface ChartData {
  days: string[];
  products: ChartProduct[];
  revenue: number;
  margin: number;
  uncosted: number;
  marginPct: number | null;
}

function num(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new Error(`Not a number: ${what}`);
  return n;
}

function pct(margin: number, costedRevenue: number): number | null {
  return costedRevenue > 0 ? (margin / costedRevenue) * 100 : null;
}

/** Turns the product summary into chart data; throws on a malformed answer (the page then shows
 * 'Failed to process product summary data'). */
export function toChartData(summary: ProductSummary): ChartData {
  if (!summary || !Array.isArray(summary.products) || !summary.date_range) throw new Error('Unexpected summary');
  const { start_date: start, days: count } = summary.date_range;
  const first = new Date(`${start}T00:00:00Z`);
  if (Number.isNaN(first.getTime())) throw new Error('Bad date range');
  const days = Array.from({ length: count }, (_, i) => new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10));
  const index = new Map(days.map((d, i) => [d, i]));
  const products = summary.products.map((p): ChartProduct => {
    const revenueByDay = new Array<number>(days.length).fill(0);
    const orderedByDay = new Array<number>(days.length).fill(0);
    for (const d of p.daily) {
      const i = index.get(d.date);
      if (i === undefined) throw new Error(`Day outside the range: ${d.date}`);
      revenueByDay[i] = num(d.revenue, 'daily revenue');
      orderedByDay[i] = num(d.quantity_ordered, 'daily quantity');
    }
    const revenue = num(p.revenue, 'revenue');
    const margin = num(p.margin, 'margin');
    const uncosted = num(p.uncosted_revenue, 'uncosted revenue');
    return {
      id: p.product_id,
      name: p.name,
      code: p.code,
      soldAs: p.sold_as,
      ordered: num(p.quantity_ordered, 'quantity ordered'),
      delivered: num(p.quantity_delivered, 'quantity delivered'),
      revenue,
      margin,
      uncosted,
      marginPct: pct(margin, revenue - uncosted),
      revenueByDay,
      orderedByDay,
    };
  });
  const revenue = num(summary.totals.revenue, 'total revenue');
  const margin = num(summary.totals.margin, 'total margin');
  const uncosted = num(summary.totals.uncosted_revenue, 'total uncosted revenue');
  return { days, products, revenue, margin, uncosted, marginPct: pct(margin, revenue - uncosted) };
}

/** The number of days from `from` to `today`, both included (the API's window ends today). */
export function daysSince(from: string, today: string): number {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${today}T00:00:00Z`);
  return Math.round((b - a) / 86_400_000) + 1;
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const qty = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export const formatMoney = (n: number) => money.format(n);
export const formatQty = (n: number) => qty.format(n);
export const formatDay = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

const UNIT_PLURAL: Record<string, string> = { gallon: 'gallons', litre: 'litres', quart: 'quarts', each: 'units', case: 'cases', box: 'boxes', pail: 'pails', drum: 'drums' };

export interface UnitGroup {
  unit: string;
  /** "gallons", "cases": what the chart's axis counts. */
  label: string;
  products: ChartProduct[];
}

/** The products grouped by the unit they are sold in, one quantity chart each: DEF in cases never
 * shares an axis with gallons (its bar would be invisible). The unit with the most ordered first. */
export function byUnit(products: ChartProduct[]): UnitGroup[] {
  const groups = new Map<string, ChartProduct[]>();
  for (const p of products) {
    const unit = p.soldAs || 'each';
    groups.set(unit, [...(groups.get(unit) ?? []), p]);
  }
  const total = (ps: ChartProduct[]) => ps.reduce((t, p) => t + p.ordered, 0);
  return [...groups.entries()]
    .map(([unit, ps]) => ({ unit, label: UNIT_PLURAL[unit] ?? unit, products: ps }))
    .sort((a, b) => total(b.products) - total(a.products));
}

/** The width to draw a chart at, or null while its box is too narrow (or not measured yet): the charts'
 * drawing area is the width less the axes and margins (`reserved`), and a negative one is a `<rect>`
 * with a negative width (a console error). */
export function chartWidth(measured: number, reserved: number, minDrawing = 40): number | null {
  if (!Number.isFinite(measured) || measured - reserved < minDrawing) return null;
  return Math.floor(measured);
}
