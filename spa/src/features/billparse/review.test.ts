import { describe, expect, it } from 'vitest';
import type { ParsedDetail } from './billparseApi';
import { draftFromDetail, isLow, sumOf, toReviewIn, totalsAgree } from './review';

const f = (value: unknown, confidence = 0.95, page = 1) => ({ value, confidence, page, bbox: [10, 20, 60, 30], raw: String(value), source: 'label' });

const detail = {
  id: 7,
  low_mark: 0.8,
  review: {},
  result: {
    fields: {
      supplier: f(3),
      bill_number: f('INV-1', 0.55),
      bill_date: f('2026-03-05'),
      due_date: f('2026-04-04'),
      terminal: f(9),
      bol_numbers: f(['123456', '654321']),
      total: f('1025.00'),
    },
    lines: [{ product: f(4), description: f('ULSD #2'), gross: f('410.000'), net: f('400.000'), unit_price: f('2.500000'), amount: f('1000.00'), bol: f(null, 0) }],
    taxes: [{ description: f('Federal Excise Tax'), amount: f('25.00') }],
  },
} as unknown as ParsedDetail;

describe('the review draft', () => {
  it('starts from what was read, with its confidence and place', () => {
    const d = draftFromDetail(detail);
    expect(d.bill_number).toBe('INV-1');
    expect(d.bol_numbers).toBe('123456, 654321');
    expect(d.lines[0]).toMatchObject({ product_id: 4, net: '400.000', amount: '1000.00' });
    expect(isLow(d.read.bill_number, 0.8)).toBe(true);
    expect(isLow(d.read.total, 0.8)).toBe(false);
    expect(d.read.bill_number.place).toEqual({ page: 1, bbox: [10, 20, 60, 30] });
    expect(sumOf(d)).toBeCloseTo(1025);
  });

  it('sends decimals as strings, BOLs as a list and empty values as null', () => {
    const d = draftFromDetail(detail);
    d.bill_number = ' INV-2 ';
    d.total = '$1,025.00';
    d.due_date = '';
    const body = toReviewIn(d, 12);
    expect(body).toMatchObject({ bill_number: 'INV-2', total: '1025.00', due_date: null, bol_numbers: ['123456', '654321'], purchase_order_id: 12 });
    expect(body.taxes).toEqual([{ name: 'Federal Excise Tax', amount: '25.00' }]);
  });

  it('prefers the saved review over what was read', () => {
    const d = draftFromDetail({ ...detail, review: { bill_number: 'FIXED', lines: [{ product_id: 5, net: '1' }], taxes: [] } });
    expect(d.bill_number).toBe('FIXED');
    expect(d.lines).toHaveLength(1);
    expect(d.lines[0].product_id).toBe(5);
    expect(d.taxes).toEqual([]);
  });

  it('sends the reason for a total that does not add up, and only then', () => {
    const d = draftFromDetail(detail);
    d.override_reason = ' Freight billed apart ';
    expect(totalsAgree(d)).toBe(true);
    expect(toReviewIn(d).total_override_reason).toBe(''); // adds up: nothing to override
    d.taxes = []; // the tax line dropped: 1,000.00 against a total of 1,025.00
    expect(totalsAgree(d)).toBe(false);
    expect(toReviewIn(d).total_override_reason).toBe('Freight billed apart');
    d.total = '1,000.00';
    expect(totalsAgree(d)).toBe(true);
  });
});
