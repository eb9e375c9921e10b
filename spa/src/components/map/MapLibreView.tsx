import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';
import type * as MapLibre from 'maplibre-gl';
// The CSP build of MapLibre: its worker is a file of this origin (the page's CSP has worker-src
// 'self', so the default blob: worker would be refused). Loaded only when tiles are configured.
import maplibreCsp from 'maplibre-gl/dist/maplibre-gl-csp.js';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-csp-worker.js?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { isPlaced, routeStyle } from './projection';
import { IN_DELIVERY, KEEP_FULL, RouteDrawing, RouteLegend } from './RouteDrawing';
import type { MapPlace, RouteMapProps } from './types';

const maplibregl: typeof MapLibre = maplibreCsp as typeof MapLibre;
const LATE = '#d32f2f';

/** A style for MapLibre: the setting is a style URL, or a raster tile template ({z}/{x}/{y}). */
export function styleFor(tiles: string): string | MapLibre.StyleSpecification {
  if (!tiles.includes('{z}')) return tiles;
  return {
    version: 8,
    sources: { base: { type: 'raster', tiles: [tiles], tileSize: 256 } },
    layers: [{ id: 'base', type: 'raster', source: 'base' }],
  };
}

/** Whether this browser can draw WebGL (MapLibre needs it; headless browsers without a GPU may not). */
export function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

export const NO_WEBGL = 'This browser cannot draw the tiled map (no WebGL): the plain drawing is shown instead.';
export const NO_STYLE = 'The map tiles could not be loaded: the plain drawing is shown instead. Check the map style / tile URL in the routing settings (and that its host is allowed by the CSP).';

/** The highlighted route thicker, the others faded (none highlighted: all alike). */
function emphasize(map: MapLibre.Map, key: string | null | undefined) {
  map.setPaintProperty('routes', 'line-width', key ? ['case', ['==', ['get', 'key'], key], 5, 3] : 3);
  map.setPaintProperty('routes', 'line-opacity', key ? ['case', ['==', ['get', 'key'], key], 1, 0.35] : 1);
}

/** A route stop as an HTML marker: its number in its route's colour, late red, flags as rings. */
function stopMarker(p: MapPlace, color: string): HTMLElement {
  const el = document.createElement('div');
  el.dataset.kind = 'stop';
  if (p.late) el.dataset.late = 'true';
  if (p.inDelivery) el.dataset.inDelivery = 'true';
  if (p.keepFull) el.dataset.keepFull = 'true';
  const title = `${p.seq ? `${p.seq}. ` : ''}${p.label}${p.late ? ' (late)' : ''}${p.inDelivery ? ' (in delivery)' : ''}${p.keepFull ? ' (keep-full top-up)' : ''}`;
  el.title = title;
  el.setAttribute('aria-label', title);
  el.setAttribute('role', 'img');
  el.textContent = p.seq ? String(p.seq) : '';
  // CSSOM (not a style attribute): allowed by the page's CSP.
  Object.assign(el.style, {
    width: '20px', height: '20px', borderRadius: '50%', background: p.late ? LATE : color, color: '#fff', font: '700 11px/20px sans-serif', textAlign: 'center',
    border: `${p.late ? 2.5 : 1.5}px solid #fff`, boxSizing: 'content-box', cursor: 'default',
    boxShadow: p.inDelivery ? `0 0 0 3px ${IN_DELIVERY}` : p.keepFull ? `0 0 0 3px ${KEEP_FULL}` : '0 1px 2px rgba(0,0,0,.4)',
    outline: p.keepFull && !p.inDelivery ? `2px dashed ${KEEP_FULL}` : '', outlineOffset: '3px',
  } satisfies Partial<CSSStyleDeclaration>);
  return el;
}

/** A yard (dark square) or terminal (purple diamond) as an HTML marker, as in the drawing's legend. */
function placeMarker(p: MapPlace): HTMLElement {
  const el = document.createElement('div');
  el.dataset.kind = p.kind;
  const title = `${p.kind === 'yard' ? 'Yard' : 'Terminal'}: ${p.label}`;
  el.title = title;
  el.setAttribute('aria-label', title);
  el.setAttribute('role', 'img');
  Object.assign(el.style, {
    width: '12px', height: '12px', border: '1.5px solid #fff', background: p.kind === 'yard' ? '#263238' : '#6a1b9a', transform: p.kind === 'yard' ? '' : 'rotate(45deg)',
    boxShadow: '0 1px 2px rgba(0,0,0,.4)',
  } satisfies Partial<CSSStyleDeclaration>);
  // MapLibre positions the marker with its own transform on a wrapper only when the element is the
  // wrapper: rotate an inner box instead.
  if (p.kind !== 'yard') {
    const outer = document.createElement('div');
    Object.assign(outer.dataset, el.dataset);
    outer.title = title;
    outer.setAttribute('aria-label', title);
    outer.setAttribute('role', 'img');
    el.removeAttribute('data-kind');
    el.removeAttribute('title');
    el.removeAttribute('aria-label');
    el.removeAttribute('role');
    el.setAttribute('aria-hidden', 'true');
    outer.appendChild(el);
    return outer;
  }
  return el;
}

/**
 * The routes on map tiles (MapLibre GL), when the routing settings name a tile source: a line per
 * truck and orders no route takes (GL layers), numbered stops, yards and terminals (HTML markers, in
 * the DOM). Without WebGL, or when the style cannot be loaded, the plain drawing
 * with a note. For tests the box says `data-map-state` (loading → ready) and, once drawn, how many
 * route lines and not-planned orders MapLibre rendered (`data-rendered-lines`, `data-rendered-loose`).
 */
export default function MapLibreView(props: RouteMapProps) {
  const { routes, places = [], loose = [], tiles, highlight, title = 'Map of the routes' } = props;
  const box = useRef<HTMLDivElement | null>(null);
  const live = useRef<MapLibre.Map | null>(null);
  const lit = useRef<string | null | undefined>(highlight);
  const [failed, setFailed] = useState<string | null>(() => (hasWebGL() ? null : NO_WEBGL));
  // What is drawn, by content: the page re-renders (a hovered truck, a poll) with new but equal
  // arrays, and the map is built again only when the routes themselves change.
  const drawing = JSON.stringify({ routes, places, loose });
  useEffect(() => {
    if (!box.current || !tiles || failed) return;
    const { routes, places, loose } = JSON.parse(drawing) as Required<Pick<RouteMapProps, 'routes' | 'places' | 'loose'>>;
    const el = box.current;
    el.dataset.mapState = 'loading';
    el.setAttribute('aria-busy', 'true');
    delete el.dataset.renderedLines;
    delete el.dataset.renderedLoose;
    maplibregl.setWorkerUrl(workerUrl);
    let map: MapLibre.Map;
    try {
      map = new maplibregl.Map({ container: el, style: styleFor(tiles), attributionControl: { compact: true } });
    } catch {
      queueMicrotask(() => setFailed(NO_WEBGL));
      return;
    }
    let loaded = false;
    const lines = routes.map((r, i) => ({
      type: 'Feature' as const,
      properties: { color: routeStyle(i).color, name: r.name, key: r.key },
      geometry: { type: 'LineString' as const, coordinates: r.path.filter(isPlaced).map((p) => [p.lng, p.lat]) },
    }));
    const stops = routes.flatMap((r, i) => r.path.filter((p) => p.kind === 'stop').filter(isPlaced).map((p) => ({ p, color: routeStyle(i).color })));
    const points = loose.filter(isPlaced).map((p) => ({ type: 'Feature' as const, properties: { label: p.label }, geometry: { type: 'Point' as const, coordinates: [p.lng, p.lat] } }));
    const fixed = places.filter(isPlaced);
    const markers = [
      ...fixed.map((p) => new maplibregl.Marker({ element: placeMarker(p) }).setLngLat([p.lng, p.lat])),
      ...stops.map(({ p, color }) => new maplibregl.Marker({ element: stopMarker(p, color) }).setLngLat([p.lng, p.lat])),
    ];
    map.on('error', () => {
      // Before the style has loaded an error means no map at all (style or tiles unreachable, refused
      // by the CSP); afterwards it is one tile, and the map stays.
      if (!loaded) setFailed(NO_STYLE);
    });
    map.on('load', () => {
      loaded = true;
      map.addSource('routes', { type: 'geojson', data: { type: 'FeatureCollection', features: lines } });
      map.addLayer({ id: 'routes', type: 'line', source: 'routes', layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': ['get', 'color'], 'line-width': 3 } });
      live.current = map;
      emphasize(map, lit.current);
      // Orders no route takes: hollow grey circles (a GL layer, as many as there are).
      map.addSource('loose', { type: 'geojson', data: { type: 'FeatureCollection', features: points } });
      map.addLayer({ id: 'loose', type: 'circle', source: 'loose', paint: { 'circle-color': '#fff', 'circle-radius': 5, 'circle-stroke-color': '#757575', 'circle-stroke-width': 2 } });
      for (const m of markers) m.addTo(map);
      const coords = [...stops.map(({ p }) => [p.lng, p.lat]), ...fixed.map((p) => [p.lng, p.lat]), ...points.map((f) => f.geometry.coordinates)];
      if (coords.length > 0) {
        const lngs = coords.map((c) => c[0]);
        const lats = coords.map((c) => c[1]);
        map.fitBounds([[Math.min(...lngs), Math.min(...lats)], [Math.max(...lngs), Math.max(...lats)]], { padding: 40, duration: 0, maxZoom: 13 });
      }
      const drawn = () => {
        map.off('idle', drawn);
        el.dataset.renderedLines = String(new Set(map.queryRenderedFeatures({ layers: ['routes'] }).map((f) => String(f.properties?.key))).size);
        el.dataset.renderedLoose = String(map.queryRenderedFeatures({ layers: ['loose'] }).length);
        el.dataset.mapState = 'ready';
        el.setAttribute('aria-busy', 'false');
      };
      map.on('idle', drawn);
    });
    return () => {
      live.current = null;
      for (const m of markers) m.remove();
      map.remove();
    };
  }, [drawing, tiles, failed]);
  // The hovered truck's route on top of the others (as on the drawing), without rebuilding the map.
  useEffect(() => {
    lit.current = highlight;
    if (live.current) emphasize(live.current, highlight);
  }, [highlight]);
  if (failed) {
    return (
      <Box data-testid="route-map-fallback">
        <Alert severity="info" sx={{ mb: 1 }}>
          {failed}
        </Alert>
        <RouteDrawing {...props} />
      </Box>
    );
  }
  return (
    <Box>
      <Box
        ref={box}
        role="region"
        aria-label={title}
        data-testid="route-maplibre"
        sx={{ width: '100%', height: { xs: 360, md: 520 }, borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }}
      />
      <RouteLegend routes={routes} loose={loose} />
    </Box>
  );
}
