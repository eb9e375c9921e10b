import { describe, expect, it } from 'vitest';
import { changedTrucks, dropFor, evaluateBody, layoutOf, moveStop, type Layout } from './planEdit';

const plan: Layout = [
  { truck_id: 7, stop_ids: [101, 102, 103] },
  { truck_id: 9, stop_ids: [201] },
  { truck_id: 11, stop_ids: [] },
];

describe('dragging a stop of the proposed plan -> the evaluate request', () => {
  it('reads each route\'s stops in order, leaving out start, reloads and end', () => {
    const routes = [
      { truck_id: 7, visits: [{ kind: 'start', ref: 3 }, { kind: 'stop', ref: 101 }, { kind: 'reload', ref: 40 }, { kind: 'stop', ref: '102' }, { kind: 'end', ref: 3 }] },
      { truck_id: 9, visits: [{ kind: 'start', ref: 3 }, { kind: 'end', ref: 3 }] },
    ];
    expect(layoutOf(routes)).toEqual([{ truck_id: 7, stop_ids: [101, 102] }, { truck_id: 9, stop_ids: [] }]);
  });

  it('moves a stop onto another stop of another truck: it takes that place, and every truck is sent', () => {
    const drop = dropFor(plan, 102, 'stop-201');
    expect(drop).toEqual({ kind: 'truck', truckId: 9, index: 0 });
    expect(evaluateBody(moveStop(plan, 102, drop!))).toEqual({
      routes: [
        { truck_id: 7, stop_ids: [101, 103] },
        { truck_id: 9, stop_ids: [102, 201] },
        { truck_id: 11, stop_ids: [] },
      ],
    });
  });

  it('reorders within a truck (down and up), as the dispatch center does', () => {
    expect(moveStop(plan, 101, dropFor(plan, 101, 'stop-103')!)[0].stop_ids).toEqual([102, 103, 101]);
    expect(moveStop(plan, 103, dropFor(plan, 103, 'stop-101')!)[0].stop_ids).toEqual([103, 101, 102]);
    expect(dropFor(plan, 101, 'stop-101')).toBeNull();
  });

  it('drops on a truck card: last on that truck; an empty truck takes it', () => {
    expect(moveStop(plan, 101, dropFor(plan, 101, 'plan-truck-11')!)).toEqual([
      { truck_id: 7, stop_ids: [102, 103] },
      { truck_id: 9, stop_ids: [201] },
      { truck_id: 11, stop_ids: [101] },
    ]);
    expect(moveStop(plan, 101, dropFor(plan, 101, 'plan-truck-7')!)[0].stop_ids).toEqual([102, 103, 101]);
  });

  it('takes a stop off every truck, and puts an unplanned order on one', () => {
    const off = moveStop(plan, 201, dropFor(plan, 201, 'plan-unplanned')!);
    expect(off[1].stop_ids).toEqual([]);
    const on = moveStop(plan, 555, dropFor(plan, 555, 'stop-102')!);
    expect(on[0].stop_ids).toEqual([101, 555, 102, 103]);
    expect(dropFor(plan, 555, 'plan-truck-99')).toBeNull();
    expect(dropFor(plan, 555, null)).toBeNull();
  });

  it('never changes the layout it was given, and names the trucks that changed', () => {
    const copy = JSON.parse(JSON.stringify(plan));
    const after = moveStop(plan, 102, { kind: 'truck', truckId: 9, index: 1 });
    expect(plan).toEqual(copy);
    expect(changedTrucks(plan, after)).toEqual([7, 9]);
    expect(changedTrucks(plan, plan)).toEqual([]);
  });

  it('moves keep-full "tank:<id>" stops like orders: onto a truck, before another stop, off to the keep-full list', () => {
    const routes = [{ truck_id: 7, visits: [{ kind: 'start', ref: 3 }, { kind: 'stop', ref: 101 }, { kind: 'stop', ref: 'tank:31' }, { kind: 'end', ref: 3 }] }];
    const layout = layoutOf(routes);
    expect(layout).toEqual([{ truck_id: 7, stop_ids: [101, 'tank:31'] }]);
    expect(dropFor(layout, 'tank:32', 'stop-tank:31')).toEqual({ kind: 'truck', truckId: 7, index: 1 });
    expect(moveStop(layout, 'tank:32', { kind: 'truck', truckId: 7, index: 1 })).toEqual([{ truck_id: 7, stop_ids: [101, 'tank:32', 'tank:31'] }]);
    expect(dropFor(layout, 'tank:31', 'plan-keep-full')).toEqual({ kind: 'unplanned' });
    expect(evaluateBody(moveStop(layout, 'tank:31', { kind: 'unplanned' }))).toEqual({ routes: [{ truck_id: 7, stop_ids: [101] }] });
  });
});

