/**
 * The dispatcher's adjustments of a proposed plan (pure, for the page and its tests): which stops
 * each truck takes, in order. A drag moves one stop; the new layout is sent to the evaluate call,
 * which answers the ETAs, loads, windows and violations of exactly that layout (no solving).
 */

import type { StopId } from './planView';

/** One truck's stops in driving order (stop ids are the orders' ids, or "tank:<id>" keep-full top-ups). */
export interface TruckStops {
  truck_id: number;
  stop_ids: StopId[];
}

/** A visit's ref as a stop id: an order's number id, or a keep-full "tank:<id>" as it is. */
export const stopIdOf = (ref: unknown): StopId => (typeof ref === 'string' && ref.startsWith('tank:') ? ref : Number(ref));

export type Layout = TruckStops[];

/** The layout of a plan as the server sent it: each route's stop visits, in order. */
export function layoutOf(routes: readonly { truck_id: number; visits: readonly { kind: string; ref: unknown }[] }[]): Layout {
  return routes.map((r) => ({ truck_id: r.truck_id, stop_ids: r.visits.filter((v) => v.kind === 'stop').map((v) => stopIdOf(v.ref)) }));
}

/** Where a dragged stop goes: onto a truck at an index, or off every truck (left unplanned). */
export type Drop = { kind: 'truck'; truckId: number; index: number } | { kind: 'unplanned' };

/**
 * The layout after moving `stopId` (from a truck or from the unplanned list) to `drop`. The index is
 * the position in the target truck's list as the user sees it before the move; moving down within
 * one truck lands the stop where the item it was dropped on was (as the dispatch center does).
 */
export function moveStop(layout: Layout, stopId: StopId, drop: Drop): Layout {
  const from = layout.find((t) => t.stop_ids.includes(stopId));
  if (drop.kind === 'unplanned') {
    if (!from) return layout;
    return layout.map((t) => (t === from ? { ...t, stop_ids: t.stop_ids.filter((id) => id !== stopId) } : t));
  }
  const to = layout.find((t) => t.truck_id === drop.truckId);
  if (!to) return layout;
  if (from === to) {
    const ids = to.stop_ids.slice();
    const i = ids.indexOf(stopId);
    const j = Math.max(0, Math.min(drop.index, ids.length - 1));
    if (i === j) return layout;
    ids.splice(i, 1);
    ids.splice(j, 0, stopId);
    return layout.map((t) => (t === to ? { ...t, stop_ids: ids } : t));
  }
  return layout.map((t) => {
    if (t === from) return { ...t, stop_ids: t.stop_ids.filter((id) => id !== stopId) };
    if (t === to) {
      const ids = t.stop_ids.slice();
      ids.splice(Math.max(0, Math.min(drop.index, ids.length)), 0, stopId);
      return { ...t, stop_ids: ids };
    }
    return t;
  });
}

/** The evaluate call's body: every truck of the plan (an emptied truck too: it then drives nothing). */
export function evaluateBody(layout: Layout): { routes: TruckStops[] } {
  return { routes: layout.map((t) => ({ truck_id: t.truck_id, stop_ids: t.stop_ids.slice() })) };
}

/** The trucks whose stops differ between two layouts (what "accept adjusted" must send). */
export function changedTrucks(before: Layout, after: Layout): number[] {
  const was = new Map(before.map((t) => [t.truck_id, t.stop_ids.join(',')]));
  return after.filter((t) => was.get(t.truck_id) !== t.stop_ids.join(',')).map((t) => t.truck_id);
}

/**
 * What a drop on the plan means, from dnd-kit's ids: the stop `stop-<id>` dropped on another stop
 * (takes its place), on a truck's card `plan-truck-<id>` (goes last) or on `plan-unplanned`.
 */
export function dropFor(layout: Layout, stopId: StopId, overId: string | null): Drop | null {
  if (!overId) return null;
  if (overId === 'plan-unplanned' || overId === 'plan-keep-full') return { kind: 'unplanned' };
  const truck = /^plan-truck-(\d+)$/.exec(overId);
  if (truck) {
    const t = layout.find((x) => x.truck_id === Number(truck[1]));
    if (!t) return null;
    const own = t.stop_ids.includes(stopId);
    return { kind: 'truck', truckId: t.truck_id, index: own ? t.stop_ids.length - 1 : t.stop_ids.length };
  }
  const stop = /^stop-(\d+|tank:\d+)$/.exec(overId);
  if (stop) {
    const target = stopIdOf(stop[1]);
    if (target === stopId) return null;
    const t = layout.find((x) => x.stop_ids.includes(target));
    return t ? { kind: 'truck', truckId: t.truck_id, index: t.stop_ids.indexOf(target) } : null;
  }
  return null;
}
