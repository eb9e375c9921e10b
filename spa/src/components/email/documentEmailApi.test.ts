import { describe, expect, it } from 'vitest';
import { draftsToPayload, formatAddressField, parseAddressField, type EmailDraft } from './documentEmailApi';

const draft = (to: string, name: string): EmailDraft => ({
  category: 'invoice',
  parent_id: 7,
  sender_email: 'no-reply@x.test',
  sender_name: 'Alpha Fuels',
  recipient_email: to,
  recipient_name: name,
  subject: 'Invoice INV-000007',
  body: 'Hello',
  attachments: [{ file_key: 'tenants/t/a.pdf', file_name: 'invoice-7-2026-03-02.pdf', content_type: 'application/pdf', size: 900 }],
  reply_to: 'billing@x.test',
  cc: [],
  bcc: [],
});

describe('document email drafts', () => {
  it('cc/bcc: addresses or "Name <address>", the name defaulting to the part before the @', () => {
    expect(parseAddressField(' Boss <boss@x.test>, ,audit@x.test ')).toEqual([
      { email: 'boss@x.test', name: 'Boss' },
      { email: 'audit@x.test', name: 'audit' },
    ]);
    expect(formatAddressField([{ email: 'boss@x.test', name: 'Boss' }, { email: 'audit@x.test', name: 'audit' }])).toBe('Boss <boss@x.test>, audit@x.test');
  });

  it('one email per recipient: one payload per draft with its own idempotency key', () => {
    const out = draftsToPayload([draft('a@x.test', 'A'), draft('b@x.test', 'B')], false, 'k');
    expect(out.map((p) => [p.recipient_email, p.recipient_name, p.one_per_recipient, p.idempotency_key])).toEqual([
      ['a@x.test', 'A', true, 'k-0'],
      ['b@x.test', 'B', true, 'k-1'],
    ]);
    expect(out[0]?.attachments).toEqual([{ file_key: 'tenants/t/a.pdf', file_name: 'invoice-7-2026-03-02.pdf' }]);
  });

  it('one email for all recipients: the addresses comma-joined in one payload', () => {
    const out = draftsToPayload([draft('a@x.test', 'A'), draft('b@x.test', 'B')], true, 'k');
    expect(out).toHaveLength(1);
    expect(out[0]?.recipient_email).toBe('a@x.test, b@x.test');
    expect(out[0]?.one_per_recipient).toBe(false);
  });
});
