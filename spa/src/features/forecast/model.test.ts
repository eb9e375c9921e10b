import { describe, expect, it } from 'vitest';
import { chartSeries, fitLines, isSelectable, ordersBody, outcomes, prune, refusedTank, runoutText, settingsBody, toggle, toggleAll } from './model';
import { runProgress } from './RunForecast';
import type { DueRow, TankForecast } from './types';

function row(id: number, over: Partial<DueRow> = {}): DueRow {
  return {
    asset_id: id,
    asset_name: `Tank ${id}`,
    serial_number: '',
    customer_id: 10 + id,
    customer_name: `Customer ${id}`,
    ship_to_name: '',
    product_name: 'Heating Oil',
    usable_gallons: '240.00',
    level_gallons: '60.00',
    level_percent: '22.00',
    reorder_date: '2026-12-08',
    runout_date: '2026-12-12',
    runout_early: '2026-12-10',
    runout_late: '2026-12-15',
    suggested_date: '2026-12-08',
    suggested_gallons: '198.40',
    confidence: 'high',
    reason: 'Reaches reorder in 2 days',
    risk: 0.8,
    open_order_id: null,
    open_order_number: null,
    ...over,
  };
}

describe('due list selection', () => {
  const rows = [row(1), row(2, { open_order_id: 77, open_order_number: 'SO-77' }), row(3)];

  it('never selects a tank that already has an open order', () => {
    expect(isSelectable(rows[1])).toBe(false);
    expect([...toggle(new Set(), rows[1])]).toEqual([]);
    expect([...toggle(new Set(), rows[0])]).toEqual([1]);
    expect([...toggle(new Set([1]), rows[0])]).toEqual([]);
  });

  it('select-all takes every tank without an open order, and a second click clears', () => {
    const all = toggleAll(new Set(), rows);
    expect([...all].sort()).toEqual([1, 3]);
    expect([...toggleAll(all, rows)]).toEqual([]);
  });

  it('drops picks whose row left the list or got an order meanwhile', () => {
    const later = [row(1, { open_order_id: 5 }), row(3)];
    expect([...prune(new Set([1, 2, 3]), later)]).toEqual([3]);
  });

  it('asks for each picked tank on its suggested day with its suggested whole gallons', () => {
    expect(ordersBody(rows, new Set([1, 2, 3]))).toEqual({
      tanks: [
        { asset_id: 1, planned_date: '2026-12-08', quantity: '198' },
        { asset_id: 3, planned_date: '2026-12-08', quantity: '198' },
      ],
    });
  });

  it('finds the tank a refusal names (by its place in the request, or by its name)', () => {
    const body = ordersBody(rows, new Set([1, 3]));
    expect(refusedTank('tanks[1]: Tank 3 has no product: set the tank\'s product first.', body, rows)).toBe(3);
    expect(refusedTank('Tank 1 already has an open order (SO-9): it is not ordered twice.', body, rows)).toBe(1);
    expect(refusedTank('Something else went wrong.', body, rows)).toBeNull();
  });

  it('says the created orders with their tank and customer', () => {
    const made = outcomes(
      { orders: [{ asset_id: 3, sales_order_id: 501, number: 'SO-501', customer_id: 13, planned_date: '2026-12-08', quantity: '198.000', amount: '0.00', unit_price: null, price_error: 'No price for Heating Oil' }] },
      rows,
    );
    expect(made).toEqual([{ asset_id: 3, tank: 'Tank 3', customer: 'Customer 3', order_id: 501, number: 'SO-501', quantity: '198 gal', planned_date: '2026-12-08', price_error: 'No price for Heating Oil' }]);
  });

  it('writes the run-out day with its interval', () => {
    expect(runoutText(row(1))).toBe('Sat, Dec 12 (Thu, Dec 10 – Tue, Dec 15)');
    expect(runoutText(row(1, { runout_early: '2026-12-12', runout_late: '2026-12-12' }))).toBe('Sat, Dec 12');
    expect(runoutText(row(1, { runout_date: null }))).toBe('Not within the horizon');
  });
});

function tank(over: Partial<TankForecast> = {}): TankForecast {
  return {
    tank: { id: 4, name: 'Basement tank', serial_number: 'SN-4', capacity: '275.00', product_id: 1, product_name: 'Heating Oil', customer_id: 9, customer_name: 'Ada', ship_to_id: null, ship_to_name: '' },
    settings: { asset_id: 4, program: 'keep_full', usage_model: 'weather', usage_type: 'residential_heating', max_fill_percent: '80.00', reorder_percent: '25.00', reorder_gallons: null, zone: { id: 2, code: 'GSO', name: 'Greensboro' }, k_factor_override: null, baseload_override: null, daily_rate_override: null },
    usable_gallons: '220.00',
    reorder_gallons: '68.75',
    level_gallons: '120.00',
    history: [
      { at: '2026-12-01T09:00:00Z', kind: 'delivery', gallons_delivered: '150.00', level_gallons: '220.00', source: '', reference: 'SO-1' },
      { at: '2026-12-03T07:00:00Z', kind: 'reading', level_gallons: '190.00', source: 'monitor', reference: '' },
      { at: '2026-12-03T19:00:00Z', kind: 'reading', level_gallons: '185.00', source: 'monitor', reference: '' },
    ],
    projection: [
      { day: '2026-12-05', level: '120.00', low: '110.00', high: '128.00' },
      { day: '2026-12-06', level: '100.00', low: '88.00', high: '111.00' },
    ],
    runout_date: '2026-12-06',
    open_order_id: null,
    cannot_forecast: '',
    ...over,
  } as TankForecast;
}

describe("the tank's chart series", () => {
  it('puts history and projection on one daily axis: readings and deliveries on their days, the band as low + width', () => {
    const s = chartSeries(tank());
    expect(s.days).toEqual(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    // The last reading of a day wins.
    expect(s.readings).toEqual([null, null, 185, null, null, null]);
    expect(s.deliveries).toEqual([220, null, null, null, null, null]);
    expect(s.deliveredGallons[0]).toBe(150);
    expect(s.level).toEqual([null, null, null, null, 120, 100]);
    expect(s.low).toEqual([null, null, null, null, 110, 88]);
    // The top of the band (128 on the first day) is held at the level it starts from (120).
    expect(s.bandWidth).toEqual([null, null, null, null, 10, 23]);
    expect(s.reorder).toBe(68.75);
    expect(s.usable).toBe(220);
    expect(s.runout).toBe('2026-12-06');
    expect(s.yMax).toBe(275);
  });

  it('leaves out history older than the window before the projection', () => {
    const s = chartSeries(tank(), 2);
    expect(s.days[0]).toBe('2026-12-03');
    expect(s.deliveries.every((v) => v === null)).toBe(true);
  });

  it('draws nothing for a tank with no history and no projection', () => {
    expect(chartSeries(tank({ history: [], projection: [] })).days).toEqual([]);
  });
});

describe('the fit, the settings and the run', () => {
  it('says K and baseload with their interval and the fills they rest on', () => {
    const lines = fitLines({ model: 'weather', k_factor: 5.234, baseload: 0.41, low: { k_factor: 5.9, baseload: 0.2 }, high: { k_factor: 4.6, baseload: 0.6 }, n_intervals: 3, method: 'huber', overridden: false });
    expect(lines).toEqual([
      { label: 'K-factor (degree days per gallon)', value: '5.23 (4.60 – 5.90)' },
      { label: 'Baseload (gallons per day)', value: '0.41 (0.20 – 0.60)' },
      { label: 'Rests on', value: '3 fills' },
    ]);
    // The server's 90 % interval wins over the span of the low and high fits.
    expect(fitLines({ model: 'calendar', daily_rate: 25, rate_range: [23.04, 27.1], low: { baseload: 0, daily_rate: 20 }, high: { baseload: 0, daily_rate: 30 }, n_intervals: 1, method: 'huber', overridden: false, notes: [] })[0]).toEqual({ label: 'Usage (gallons per day)', value: '25.0 (23.0 – 27.1)' });
    expect(fitLines({ model: 'calendar', daily_rate: 12.25, low: null, high: null, n_intervals: 0, method: 'prior', overridden: false })).toEqual([
      { label: 'Usage (gallons per day)', value: '12.3' },
      { label: 'Rests on', value: 'No fills yet: typical values for this kind of tank' },
    ]);
  });

  it('sends every setting with a change (the PUT replaces them all)', () => {
    expect(settingsBody(tank().settings, { k_factor_override: '5.5' })).toEqual({
      program: 'keep_full',
      usage_model: 'weather',
      usage_type: 'residential_heating',
      max_fill_percent: '80.00',
      reorder_percent: '25.00',
      reorder_gallons: null,
      zone_id: 2,
      k_factor_override: '5.5',
      baseload_override: null,
      daily_rate_override: null,
    });
  });

  it("shows a run's progress as done of total tanks", () => {
    expect(runProgress({ done: 312, total: 1200, status: 'running' })).toEqual({ text: '312 of 1,200 tanks', percent: 26 });
    expect(runProgress({ done: 0, total: 0, status: 'queued' })).toEqual({ text: 'Waiting for a worker…', percent: null });
  });
});
