import { describe, expect, it } from 'vitest';
import { dropTarget, moveItem } from './dispatchDnd';

const assigned = { id: 2, status: 'assigned', truck_id: 7 };
const verified = { id: 9, status: 'verified', truck_id: null };
const stops = [1, 2, 3, 4];

describe('dispatch center drops', () => {
  it('reorders a stop dropped on another stop of its own truck, taking that place', () => {
    expect(dropTarget(assigned, { id: 'order-4', truckId: 7, truckStops: stops, overStopId: 4 })).toEqual({
      kind: 'reorder',
      truckId: 7,
      orderIds: [1, 3, 4, 2],
    });
    expect(dropTarget(assigned, { id: 'order-1', truckId: 7, truckStops: stops, overStopId: 1 })).toEqual({
      kind: 'reorder',
      truckId: 7,
      orderIds: [2, 1, 3, 4],
    });
  });

  it('does nothing for a stop dropped on itself or on its own truck card', () => {
    expect(dropTarget(assigned, { id: 'order-2', truckId: 7, truckStops: stops, overStopId: 2 })).toEqual({ kind: 'none' });
    expect(dropTarget(assigned, { id: 'truck-7', truckId: 7, truckStops: stops })).toEqual({ kind: 'none' });
    expect(dropTarget(assigned, null)).toEqual({ kind: 'none' });
  });

  it('assigns to the truck dropped on, or on one of its stops', () => {
    expect(dropTarget(verified, { id: 'truck-7', truckId: 7, truckStops: stops })).toEqual({ kind: 'assign', truckId: 7 });
    expect(dropTarget(verified, { id: 'order-3', truckId: 7, truckStops: stops, overStopId: 3 })).toEqual({ kind: 'assign', truckId: 7 });
    expect(dropTarget(assigned, { id: 'truck-8', truckId: 8, truckStops: [] })).toEqual({ kind: 'assign', truckId: 8 });
  });

  it('unassigns only an assigned stop dropped on Unassigned', () => {
    expect(dropTarget(assigned, { id: 'unassigned' })).toEqual({ kind: 'unassign' });
    expect(dropTarget(verified, { id: 'unassigned' })).toEqual({ kind: 'none' });
    expect(dropTarget({ id: 5, status: 'in_delivery', truck_id: 7 }, { id: 'unassigned' })).toEqual({ kind: 'none' });
  });

  it('moves an item without changing the input', () => {
    const items = ['a', 'b', 'c'];
    expect(moveItem(items, 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(items, 2, 0)).toEqual(['c', 'a', 'b']);
    expect(items).toEqual(['a', 'b', 'c']);
  });
});
