import { describe, expect, it } from 'vitest';
import { deliveredOf, grossOf, lineBody, lineProblem, netOf, type LineForm } from './entryForm';
import type { EntryLine } from './deliveryApi';

const diesel = { product_name: 'Clear Diesel', api_gravity: '35.0', vcf_group: 'distillate' } as unknown as EntryLine;
const oil = { product_name: 'Engine oil', api_gravity: null, vcf_group: 'none' } as unknown as EntryLine;
const form = (p: Partial<LineForm>): LineForm => ({
  line_item_id: 1, meter_start: '', meter_end: '', gross_volume: '', temperature_f: '', delivered_quantity: '', tank_id: null, ...p,
});

describe('office entry: net gallons computed live', () => {
  it('takes gross from the meters and corrects it to 60 °F', () => {
    const f = form({ meter_start: '184220', meter_end: '185220', temperature_f: '80' });
    expect(grossOf(f)).toBe(1000);
    expect(netOf(f, diesel)).toBe(990.7);
    expect(deliveredOf(f, diesel)).toBe(990.7); // fuel is billed on net
    expect(lineBody(f)).toMatchObject({ gross_volume: 1000, temperature_f: 80, delivered_quantity: null });
  });
  it('uses a typed delivered quantity, and gross for goods', () => {
    expect(deliveredOf(form({ meter_start: '0', meter_end: '100', temperature_f: '80', delivered_quantity: '99' }), diesel)).toBe(99);
    expect(netOf(form({ gross_volume: '2' }), oil)).toBe(2);
  });
  it('names what is missing or wrong', () => {
    expect(lineProblem(form({ meter_start: '10', meter_end: '5' }), diesel)).toBe('Clear Diesel: the end meter reading is below the start reading.');
    expect(lineProblem(form({ gross_volume: '100' }), diesel)).toBe('Clear Diesel: enter the product temperature.');
    expect(lineProblem(form({}), oil)).toBe('Engine oil: enter the delivered quantity or the meter readings.');
    expect(lineProblem(form({ gross_volume: '100', temperature_f: '70' }), diesel)).toBeNull();
  });
});
