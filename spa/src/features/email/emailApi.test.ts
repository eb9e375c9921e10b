import { describe, expect, it } from 'vitest';
import { mergeHistory, type SentEmail } from './emailApi';

const email = (id: number, category: string, sent_at: string | null) => ({ id, category, sent_at }) as unknown as SentEmail;

describe('email history (spec section 7: both categories merged, newest first)', () => {
  it('merges the invoice and invoice-with-ticket lists by sent_at descending', () => {
    const merged = mergeHistory([
      [email(1, 'invoice', '2026-03-02T10:00:00Z'), email(2, 'invoice', '2026-03-01T09:00:00Z')],
      [email(3, 'invoice_with_delivery_ticket', '2026-03-01T12:00:00Z'), email(4, 'invoice_with_delivery_ticket', null)],
    ]);
    expect(merged.map((e) => e.id)).toEqual([4, 1, 3, 2]);
  });
});
