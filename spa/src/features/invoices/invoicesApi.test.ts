import { describe, expect, it } from 'vitest';
import { MSG_ARCHIVE, MSG_ASSIGN, MSG_CREATE, countsAsJobLogAnswer, money, summaryToast } from './invoicesApi';

describe('invoice helpers', () => {
  it('words the create/update toast with the counts of spec section 8', () => {
    expect(summaryToast({ created: 3, updated: 1, removed: 2 })).toBe('Invoice saved: 1 updated, 3 created, 2 removed');
  });

  it('keeps the spec texts of the stubs and the failure', () => {
    expect(MSG_ASSIGN).toBe('Assign not implemented');
    expect(MSG_ARCHIVE).toBe('Archive not implemented');
    expect(MSG_CREATE).toBe('Failed to create/update invoice');
  });

  it('counts a job-log answer only with status_code 200', () => {
    expect(countsAsJobLogAnswer({ status_code: 200, data: { logs: [] } })).toBe(true);
    expect(countsAsJobLogAnswer({ status_code: 201, data: {} })).toBe(false);
    expect(countsAsJobLogAnswer(null)).toBe(false);
  });

  it('shows money to the cent', () => {
    expect(money('3401.6')).toBe('$3,401.60');
    expect(money(null)).toBe('—');
  });
});
