/** What a drop on the dispatch center means (pure, for the page and its tests). */

export type DropTarget =
  | { kind: 'unassign' }
  | { kind: 'assign'; truckId: number }
  | { kind: 'reorder'; truckId: number; orderIds: number[] }
  | { kind: 'none' };

export interface DragStop {
  id: number;
  status: string;
  truck_id?: number | null;
}

/** `over`: the droppable under the pointer — 'unassigned', a truck card (its id) or a stop of a truck
 * (that truck's id and its stops in order). */
export function dropTarget(
  stop: DragStop,
  over: { id: string; truckId?: number; truckStops?: number[]; overStopId?: number } | null,
): DropTarget {
  if (!over) return { kind: 'none' };
  if (over.id === 'unassigned') return stop.status === 'assigned' ? { kind: 'unassign' } : { kind: 'none' };
  if (over.truckId === undefined) return { kind: 'none' };
  if (over.truckId !== stop.truck_id) return { kind: 'assign', truckId: over.truckId };
  // On its own truck: dropped on another stop of it, the stop takes that place.
  const ids = over.truckStops ?? [];
  const from = ids.indexOf(stop.id);
  const to = over.overStopId === undefined ? -1 : ids.indexOf(over.overStopId);
  if (from < 0 || to < 0 || from === to) return { kind: 'none' };
  return { kind: 'reorder', truckId: over.truckId, orderIds: moveItem(ids, from, to) };
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const out = items.slice();
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}
