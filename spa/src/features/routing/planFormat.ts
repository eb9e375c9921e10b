/** Numbers of a plan as the dispatcher reads them (pure). */

const num = (v: number | string | null | undefined) => (v === null || v === undefined || v === '' ? 0 : Number(v));

/** Seconds since the day's midnight as a clock time; past midnight says so. */
export function clock(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return '—';
  const s = Math.round(seconds / 60) * 60;
  const day = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}${day > 0 ? ` (+${day}d)` : ''}`;
}

export function minutes(seconds: number): string {
  const m = Math.round(Math.abs(seconds) / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')}`;
}

/** How a stop sits in its window: late (red), tight (under 15 minutes to spare), fine, or no window. */
export function slack(windowSlack: number | null | undefined, late: number | null | undefined): { text: string; tone: 'late' | 'tight' | 'ok' | 'none' } {
  if (num(late) > 0) return { text: `${minutes(num(late))} late`, tone: 'late' };
  if (windowSlack === null || windowSlack === undefined) return { text: 'no window', tone: 'none' };
  return { text: `${minutes(windowSlack)} to spare`, tone: windowSlack < 900 ? 'tight' : 'ok' };
}

/** The headline numbers of a plan (the proposed one or the current one). */
export interface Totals {
  miles: number | string;
  hours: number | string;
  trucks_used: number;
  late_stops: number;
  /** Orders the plan serves: a plan with fewer miles that serves fewer stops is not a saving. */
  stops?: number;
}

export interface DiffRow {
  key: keyof Totals;
  label: string;
  proposed: number;
  current: number | null;
  /** proposed − current (null without a current plan). */
  delta: number | null;
  /** Lower is better, but for the stops served; null when equal or unknown. */
  better: boolean | null;
  text: string;
}

const LABELS: Record<keyof Totals, { label: string; unit: (n: number) => string; digits: number }> = {
  stops: { label: 'Stops served', unit: (n) => (n === 1 ? 'stop' : 'stops'), digits: 0 },
  miles: { label: 'Miles', unit: () => 'mi', digits: 1 },
  hours: { label: 'Hours', unit: () => 'h', digits: 1 },
  trucks_used: { label: 'Trucks', unit: (n) => (n === 1 ? 'truck' : 'trucks'), digits: 0 },
  late_stops: { label: 'Late stops', unit: (n) => (n === 1 ? 'late stop' : 'late stops'), digits: 0 },
};

const fmt = (n: number, digits: number) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * The proposed plan against the current one, metric by metric: "142.3 mi (−38.0 mi, −21 %)". The
 * current plan is what the dispatch center holds now (its assigned trucks and stop order); without
 * one (nothing assigned yet) the rows show the proposal alone.
 */
export function diffRows(proposed: Totals, current: Totals | null): DiffRow[] {
  // The stops served are compared only when both plans say how many they serve.
  const keys = (Object.keys(LABELS) as (keyof Totals)[]).filter(
    (key) => key !== 'stops' || (proposed.stops !== undefined && (current === null || current.stops !== undefined)),
  );
  return keys.map((key) => {
    const { label, unit, digits } = LABELS[key];
    const p = num(proposed[key] ?? 0);
    const c = current ? num(current[key] ?? 0) : null;
    const round = (n: number) => Number(n.toFixed(digits));
    const delta = c === null ? null : round(p - c);
    const better = delta === null || delta === 0 ? null : key === 'stops' ? delta > 0 : delta < 0;
    let text = `${fmt(p, digits)} ${unit(p)}`;
    if (delta !== null && c !== null) {
      const pct = c !== 0 && digits > 0 ? ` ${delta > 0 ? '+' : '−'}${Math.round(Math.abs((delta / c) * 100))} %` : '';
      text += delta === 0 ? ' (same)' : ` (${delta > 0 ? '+' : '−'}${fmt(Math.abs(delta), digits)}${pct ? `,${pct}` : ''} against ${fmt(c, digits)})`;
    }
    return { key, label, proposed: p, current: c, delta, better, text };
  });
}

/** One sentence for the summary bar: what the proposal saves (or costs) against the current plan. */
export function diffSentence(rows: DiffRow[]): string {
  const changed = rows.filter((r) => r.delta !== null && r.delta !== 0);
  if (rows.every((r) => r.current === null)) return 'Nothing is planned for this day yet: the whole plan is new.';
  if (changed.length === 0) return 'The proposal is the same as the current plan.';
  const part = (r: DiffRow) => {
    const d = Math.abs(r.delta!);
    const less = r.delta! < 0;
    switch (r.key) {
      case 'miles':
        return `${fmt(d, 1)} mi ${less ? 'fewer' : 'more'}`;
      case 'hours':
        return `${fmt(d, 1)} h ${less ? 'less' : 'more'}`;
      case 'trucks_used':
        return `${d} ${d === 1 ? 'truck' : 'trucks'} ${less ? 'fewer' : 'more'}`;
      case 'stops':
        return `${d} ${d === 1 ? 'stop' : 'stops'} ${less ? 'fewer' : 'more'} served`;
      default:
        return `${d} ${d === 1 ? 'late stop' : 'late stops'} ${less ? 'fewer' : 'more'}`;
    }
  };
  return `Against the current plan: ${changed.map(part).join(', ')}.`;
}

/** A keep-full top-up's line: "Ship-to · 400 gal ULSD · due Dec 8 · 30 % risk". */
export function keepFullLine(k: { shipTo: string; product: string; gallons: number; due: string | null; risk: number }): string {
  const due = k.due ? new Date(`${k.due}T12:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric' }) : '';
  return [
    k.shipTo,
    `${k.gallons.toLocaleString('en-US', { maximumFractionDigits: 0 })} gal${k.product ? ` ${k.product}` : ''}`,
    due && `due ${due}`,
    k.risk > 0 ? `${Math.round(k.risk * 100)} % risk` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
