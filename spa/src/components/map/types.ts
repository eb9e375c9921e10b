import type { LatLng } from './projection';

/** A place on a route map: a yard, a terminal, a stop of a route or an order no route takes. */
export interface MapPlace extends Partial<LatLng> {
  key: string;
  kind: 'yard' | 'terminal' | 'stop';
  label: string;
  /** The stop's position on its route (1-based), drawn in its circle. */
  seq?: number;
  /** Late (outside its window) or otherwise infeasible: drawn in red. */
  late?: boolean;
  /** Already in delivery (the plan cannot move it): drawn with a dark ring. Only when the payload says so. */
  inDelivery?: boolean;
  /** An optional keep-full top-up (taken because it fits on the way): drawn with a dashed ring. */
  keepFull?: boolean;
}

/** One truck's route: its places in driving order (start yard, stops, reloads, end yard). */
export interface MapRoute {
  key: string;
  name: string;
  path: MapPlace[];
}

export interface RouteMapProps {
  routes: MapRoute[];
  /** Yards and terminals (drawn whether or not a route passes them). */
  places?: MapPlace[];
  /** Orders that no route takes (drawn grey, hollow). */
  loose?: MapPlace[];
  /** A MapLibre style URL or a raster tile template ({z}/{x}/{y}); none: the plain drawing. */
  tiles?: string | null;
  /** The route to draw on top and thicker (the truck the user is looking at). */
  highlight?: string | null;
  title?: string;
}
