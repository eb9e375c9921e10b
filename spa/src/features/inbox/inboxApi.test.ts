import { describe, expect, it } from 'vitest';
import { reviewFromParse, reviewTotals } from './inboxApi';

const f = (value: unknown) => ({ value, confidence: 0.95 });

describe('the inbox bill review', () => {
  const result = {
    fields: { supplier: f(3), bill_number: f('INV-9'), total: f('22832.00') },
    lines: [{ amount: f('19280.00'), net: f('8000'), unit_price: f('2.41') }],
    taxes: [{ description: f('Federal Excise Tax'), amount: f('1952.00') }],
  };

  it('says when lines + taxes differ from the invoice total (the user must give a reason)', () => {
    const review = reviewFromParse(result, null);
    expect(review.total_override_reason).toBe('');
    const t = reviewTotals(review);
    expect(t.sum).toBeCloseTo(21232);
    expect(t.total).toBe(22832);
    expect(t.agree).toBe(false);
  });

  it('agrees to the cent, and with no total read there is nothing to disagree with', () => {
    const review = reviewFromParse({ ...result, taxes: [...result.taxes, { description: f('State tax'), amount: f('1600.00') }] }, null);
    expect(reviewTotals(review).agree).toBe(true);
    expect(reviewTotals({ ...review, total: null }).agree).toBe(true);
  });
});
