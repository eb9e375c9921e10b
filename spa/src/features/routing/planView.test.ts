import { describe, expect, it } from 'vitest';
import { arrange, type PlanView, type StopInfo, type VisitRow } from './planView';

const stop = (id: number): StopInfo => ({ id, number: `SO-${id}`, customer: `C${id}`, place: '', lat: 29.7, lng: -95.3, window: '', quantities: '', fixed: false });
const visit = (kind: VisitRow['kind'], id: number, at: number): VisitRow => ({ key: `${kind}-${id}`, kind, label: kind, lat: null, lng: null, arrival_s: at, departure_s: at, window_slack_s: null, late_s: 0, stop: kind === 'stop' ? stop(id) : null, problems: [] });
const view: PlanView = {
  routes: [
    { truck_id: 7, truck: 'T-101', driver: 'Ann', visits: [visit('start', 1, 21600), visit('stop', 101, 23000), visit('reload', 40, 25000), visit('stop', 102, 27000), visit('end', 1, 30000)], loads: [], miles: 50, hours: 3, utilization: 0.8, problems: [] },
    { truck_id: 9, truck: 'T-102', driver: null, visits: [visit('start', 1, 21600), visit('end', 1, 22000)], loads: [], miles: 0, hours: 0, utilization: 0, problems: [] },
  ],
  unplanned: [{ stop: stop(300), reason: 'No truck carries DEF' }],
  totals: { miles: 50, hours: 3, trucks_used: 1, late_stops: 0 },
  current: null,
  places: [],
};

describe('the plan as just arranged (before the evaluator answers)', () => {
  it('shows the new order with the last known ETAs, unplanned orders on trucks, stops taken off listed', () => {
    const out = arrange(view, [{ truck_id: 7, stop_ids: [102] }, { truck_id: 9, stop_ids: [300, 101] }]);
    expect(out.routes[0].visits.map((v) => v.key)).toEqual(['start-1', 'stop-102', 'end-1']);
    expect(out.routes[1].visits.map((v) => v.stop?.id ?? v.kind)).toEqual(['start', 300, 101, 'end']);
    expect(out.routes[1].visits[2].arrival_s).toBe(23000);
    expect(Number.isNaN(out.routes[1].visits[1].arrival_s)).toBe(true);
    expect(out.unplanned).toEqual([]);
    const off = arrange(view, [{ truck_id: 7, stop_ids: [101] }, { truck_id: 9, stop_ids: [] }]);
    expect(off.unplanned.map((u) => [u.stop.id, u.reason])).toEqual([[300, 'No truck carries DEF'], [102, 'Taken off its truck by you']]);
  });
});
