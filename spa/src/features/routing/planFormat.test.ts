import { describe, expect, it } from 'vitest';
import { clock, diffRows, diffSentence, slack } from './planFormat';

describe('the proposed plan against the current one', () => {
  const proposed = { miles: '412.4', hours: '31.5', trucks_used: 5, late_stops: 0 };
  const current = { miles: '523.9', hours: '34.0', trucks_used: 6, late_stops: 3 };

  it('shows each metric with its difference and whether it is better', () => {
    const rows = diffRows(proposed, current);
    expect(rows.map((r) => [r.key, r.delta, r.better])).toEqual([
      ['miles', -111.5, true],
      ['hours', -2.5, true],
      ['trucks_used', -1, true],
      ['late_stops', -3, true],
    ]);
    expect(rows[0].text).toBe('412.4 mi (−111.5, −21 % against 523.9)');
    expect(rows[2].text).toBe('5 trucks (−1 against 6)');
  });

  it('says what the proposal saves in one sentence, and costs as costs', () => {
    expect(diffSentence(diffRows(proposed, current))).toBe('Against the current plan: 111.5 mi fewer, 2.5 h less, 1 truck fewer, 3 late stops fewer.');
    const worse = diffRows({ miles: 500, hours: 30, trucks_used: 7, late_stops: 1 }, { miles: 480, hours: 30, trucks_used: 6, late_stops: 1 });
    expect(worse.map((r) => r.better)).toEqual([false, null, false, null]);
    expect(diffSentence(worse)).toBe('Against the current plan: 20.0 mi more, 1 truck more.');
    expect(diffSentence(diffRows(proposed, proposed))).toBe('The proposal is the same as the current plan.');
  });

  it('puts the stops served first, so fewer miles from fewer stops reads as what it is', () => {
    const rows = diffRows({ ...proposed, stops: 40 }, { ...current, stops: 45 });
    expect(rows[0]).toMatchObject({ key: 'stops', delta: -5, better: false, text: '40 stops (−5 against 45)' });
    expect(diffSentence(rows)).toBe('Against the current plan: 5 stops fewer served, 111.5 mi fewer, 2.5 h less, 1 truck fewer, 3 late stops fewer.');
    expect(diffRows({ ...proposed, stops: 46 }, { ...current, stops: 45 })[0].better).toBe(true);
  });

  it('without a current plan shows the proposal alone', () => {
    const rows = diffRows(proposed, null);
    expect(rows.every((r) => r.delta === null && r.better === null)).toBe(true);
    expect(rows[3].text).toBe('0 late stops');
    expect(diffSentence(rows)).toBe('Nothing is planned for this day yet: the whole plan is new.');
  });
});

describe('times and windows', () => {
  it('reads seconds since midnight as a clock time', () => {
    expect(clock(6 * 3600 + 5 * 60 + 29)).toBe('06:05');
    expect(clock(6 * 3600 + 5 * 60 + 31)).toBe('06:06');
    expect(clock(25 * 3600)).toBe('01:00 (+1d)');
    expect(clock(null)).toBe('—');
  });

  it('marks a late stop red, a tight one, and a stop without a window', () => {
    expect(slack(0, 1380)).toEqual({ text: '23 min late', tone: 'late' });
    expect(slack(600, 0)).toEqual({ text: '10 min to spare', tone: 'tight' });
    expect(slack(5400, 0)).toEqual({ text: '1 h 30 to spare', tone: 'ok' });
    expect(slack(null, 0)).toEqual({ text: 'no window', tone: 'none' });
  });
});
