import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import './DateField';

describe('date pickers (spec section 9)', () => {
  it('start weeks on Sunday with the first week holding day 1', () => {
    const locale = (dayjs as unknown as { Ls: Record<string, { weekStart?: number; yearStart?: number }> }).Ls.en;
    expect(locale.weekStart).toBe(0);
    expect(locale.yearStart).toBe(1);
    expect(dayjs('2026-11-19').startOf('week').format('YYYY-MM-DD')).toBe('2026-11-15');
  });
});
