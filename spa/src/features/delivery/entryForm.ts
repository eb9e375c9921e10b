import { netVolume, type VcfGroup } from '@/lib/vcf';
import type { EntryLine, EntryLineBody } from './deliveryApi';

/** One line of the office entry as typed (text, so a half-typed number stays as typed). */
export interface LineForm {
  line_item_id: number;
  meter_start: string;
  meter_end: string;
  gross_volume: string;
  temperature_f: string;
  delivered_quantity: string;
  tank_id: number | null;
}

const n = (v: string) => (v.trim() === '' ? null : Number(v));
const txt = (v: string | null | undefined) => (v === null || v === undefined ? '' : String(Number(v)));

export function lineForm(l: EntryLine): LineForm {
  return {
    line_item_id: l.line_item_id,
    meter_start: txt(l.meter_start),
    meter_end: txt(l.meter_end),
    gross_volume: txt(l.gross_volume),
    temperature_f: txt(l.temperature_f),
    delivered_quantity: l.delivered_quantity === null ? '' : txt(l.delivered_quantity),
    tank_id: l.tank_id ?? null,
  };
}

/** Gross gallons: typed, else meter end − meter start. */
export function grossOf(f: LineForm): number | null {
  const typed = n(f.gross_volume);
  if (typed !== null) return Number.isFinite(typed) ? typed : null;
  const start = n(f.meter_start);
  const end = n(f.meter_end);
  if (start === null || end === null || !Number.isFinite(start) || !Number.isFinite(end) || end < start) return null;
  return Number((end - start).toFixed(3));
}

/** Net gallons at 60 °F as the server will compute them (null when not computable yet). */
export function netOf(f: LineForm, l: Pick<EntryLine, 'api_gravity' | 'vcf_group'>): number | null {
  const gross = grossOf(f);
  if (gross === null) return null;
  const group = (l.vcf_group || 'none') as VcfGroup;
  if (group === 'none') return gross;
  const t = n(f.temperature_f);
  if (t === null || l.api_gravity === null || l.api_gravity === undefined) return null;
  return netVolume(gross, t, Number(l.api_gravity), group);
}

/** What the line delivers: typed, else net (corrected fuel), else gross. */
export function deliveredOf(f: LineForm, l: Pick<EntryLine, 'api_gravity' | 'vcf_group'>): number | null {
  const typed = n(f.delivered_quantity);
  if (typed !== null) return Number.isFinite(typed) ? typed : null;
  return netOf(f, l) ?? grossOf(f);
}

/** A problem that stops the entry (first one), or null. */
export function lineProblem(f: LineForm, l: EntryLine): string | null {
  const start = n(f.meter_start);
  const end = n(f.meter_end);
  if (start !== null && end !== null && end < start) return `${l.product_name}: the end meter reading is below the start reading.`;
  const t = n(f.temperature_f);
  if (t !== null && (t < -50 || t > 300)) return `${l.product_name}: the temperature must be between -50 and 300 °F.`;
  if (grossOf(f) !== null && (l.vcf_group || 'none') !== 'none' && t === null) return `${l.product_name}: enter the product temperature.`;
  if (deliveredOf(f, l) === null) return `${l.product_name}: enter the delivered quantity or the meter readings.`;
  return null;
}

export function lineBody(f: LineForm): EntryLineBody {
  const gross = grossOf(f);
  return {
    line_item_id: f.line_item_id,
    meter_start: n(f.meter_start),
    meter_end: n(f.meter_end),
    gross_volume: f.gross_volume.trim() === '' ? (gross ?? null) : n(f.gross_volume),
    temperature_f: n(f.temperature_f),
    delivered_quantity: n(f.delivered_quantity),
    tank_id: f.tank_id,
  };
}
