/**
 * Plain map drawing without tiles: latitude/longitude projected onto a box (an equirectangular
 * projection scaled by the cosine of the middle latitude, so a mile east is as long as a mile north
 * at the scale of a delivery area), north up, fitted into width x height with a margin and the
 * aspect kept (no stretching: a square area stays square).
 */
export interface LatLng {
  lat: number;
  lng: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface Projection {
  project: (p: LatLng) => Point;
  /** Screen pixels per mile (for a scale bar). */
  pxPerMile: number;
}

const MILES_PER_DEGREE_LAT = 69.055;

export function isPlaced<T extends Partial<LatLng>>(p: T | null | undefined): p is T & LatLng {
  return !!p && typeof p.lat === 'number' && typeof p.lng === 'number' && Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}

/** Fits `points` into the box; with one point (or all at one place) it sits in the middle. */
export function fitProjection(points: readonly LatLng[], width: number, height: number, margin = 24): Projection {
  const placed = points.filter(isPlaced);
  if (placed.length === 0) return { project: () => ({ x: width / 2, y: height / 2 }), pxPerMile: 1 };
  const lats = placed.map((p) => p.lat);
  const lngs = placed.map((p) => p.lng);
  const minLat = Math.min(...lats);
  const maxLat = Math.max(...lats);
  const minLng = Math.min(...lngs);
  const maxLng = Math.max(...lngs);
  const kx = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180); // a degree of longitude, in degrees of latitude
  const spanX = (maxLng - minLng) * kx;
  const spanY = maxLat - minLat;
  const innerW = Math.max(1, width - 2 * margin);
  const innerH = Math.max(1, height - 2 * margin);
  // A tiny spread (one place) gets the scale of ~2 miles across, not an infinite zoom.
  const span = Math.max(spanX / innerW, spanY / innerH, 2 / MILES_PER_DEGREE_LAT / Math.min(innerW, innerH));
  const scale = 1 / span; // px per degree of latitude
  const cx = ((minLng + maxLng) / 2) * kx;
  const cy = (minLat + maxLat) / 2;
  return {
    project: (p) => ({ x: width / 2 + (p.lng * kx - cx) * scale, y: height / 2 - (p.lat - cy) * scale }),
    pxPerMile: scale / MILES_PER_DEGREE_LAT,
  };
}

/** One colour per truck: Tableau's 10 without its red and pink (red marks a late stop), with two of
 * its blues and teals; past ten they repeat dashed. */
export const ROUTE_COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#499894', '#bab0ac', '#a0cbe8'] as const;

export function routeStyle(index: number): { color: string; dash?: string } {
  const color = ROUTE_COLORS[index % ROUTE_COLORS.length];
  const round = Math.floor(index / ROUTE_COLORS.length);
  return round === 0 ? { color } : { color, dash: round === 1 ? '8 4' : '2 4' };
}

/** A "nice" length for a scale bar of at most `maxPx` pixels: 1, 2 or 5 x 10^n miles. */
export function scaleBar(pxPerMile: number, maxPx = 120): { miles: number; px: number } {
  const maxMiles = maxPx / pxPerMile;
  const pow = 10 ** Math.floor(Math.log10(maxMiles));
  const miles = [5, 2, 1].map((m) => m * pow).find((m) => m <= maxMiles) ?? pow;
  return { miles, px: miles * pxPerMile };
}
