import { describe, expect, it } from 'vitest';
import { lineAmount, linesFromPo, matchTones } from './matchView';

const poLine = (over: Partial<Parameters<typeof linesFromPo>[0][number]> = {}) => ({
  id: 1,
  product_id: 7,
  product: { name: 'Clear Diesel' },
  quantity: '8000.000',
  unit_cost: '2.4512',
  received_net: '7950.000',
  billed_quantity: '0.000',
  ...over,
});

describe('matchTones', () => {
  it('highlights the quantity or the price out of tolerance', () => {
    expect(matchTones({ quantity_ok: false, price_ok: true, within_tolerance: false, purchase_order_line_id: 3, reason: '' })).toEqual({ quantity: 'bad', price: 'ok', row: 'bad' });
    expect(matchTones({ quantity_ok: true, price_ok: true, within_tolerance: true, purchase_order_line_id: 3, reason: '' })).toEqual({ quantity: 'ok', price: 'ok', row: 'ok' });
  });
  it('marks a line not on the order as a whole', () => {
    expect(matchTones({ quantity_ok: false, price_ok: false, within_tolerance: false, purchase_order_line_id: null, reason: 'not on the purchase order' }).row).toBe('bad');
  });
});

describe('linesFromPo', () => {
  it('bills what was received and not billed yet, at the ordered cost', () => {
    const [line] = linesFromPo([poLine({ billed_quantity: '950.000' })], 'BOL-1');
    expect(line).toMatchObject({ product_id: 7, purchase_order_line_id: 1, quantity: '7000', unit_price: '2.4512', bol_number: 'BOL-1' });
  });
  it('uses the ordered quantity before anything is received', () => {
    expect(linesFromPo([poLine({ received_net: '0.000' })])[0].quantity).toBe('8000');
  });
  it('leaves out lines billed in full', () => {
    const lines = linesFromPo([poLine(), poLine({ id: 2, product_id: 8, received_net: '100', billed_quantity: '100' })]);
    expect(lines.map((l) => l.purchase_order_line_id)).toEqual([1]);
  });
});

describe('lineAmount', () => {
  it('rounds to the cent', () => {
    expect(lineAmount('7950', '2.4512')).toBe(19487.04);
    expect(lineAmount('', '1')).toBeNull();
  });
});
