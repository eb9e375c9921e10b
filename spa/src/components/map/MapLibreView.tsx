import Box from '@mui/material/Box';
import { useEffect, useRef } from 'react';
import type * as MapLibre from 'maplibre-gl';
// The CSP build of MapLibre: its worker is a file of this origin (the page's CSP has worker-src
// 'self', so the default blob: worker would be refused). Loaded only when tiles are configured.
import maplibreCsp from 'maplibre-gl/dist/maplibre-gl-csp.js';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-csp-worker.js?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { isPlaced, routeStyle } from './projection';
import type { RouteMapProps } from './types';

const maplibregl: typeof MapLibre = maplibreCsp as typeof MapLibre;

/** A style for MapLibre: the setting is a style URL, or a raster tile template ({z}/{x}/{y}). */
export function styleFor(tiles: string): string | MapLibre.StyleSpecification {
  if (!tiles.includes('{z}')) return tiles;
  return {
    version: 8,
    sources: { base: { type: 'raster', tiles: [tiles], tileSize: 256 } },
    layers: [{ id: 'base', type: 'raster', source: 'base' }],
  };
}

/** The routes on map tiles (MapLibre GL), when the routing settings name a tile source. */
export default function MapLibreView({ routes, places = [], loose = [], tiles, title = 'Map of the routes' }: RouteMapProps) {
  const box = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!box.current || !tiles) return;
    maplibregl.setWorkerUrl(workerUrl);
    const map = new maplibregl.Map({ container: box.current, style: styleFor(tiles), attributionControl: { compact: true } });
    const lines = routes.map((r, i) => ({
      type: 'Feature' as const,
      properties: { color: routeStyle(i).color, name: r.name },
      geometry: { type: 'LineString' as const, coordinates: r.path.filter(isPlaced).map((p) => [p.lng, p.lat]) },
    }));
    const points = [...routes.flatMap((r, i) => r.path.map((p) => ({ p, color: p.late ? '#d32f2f' : routeStyle(i).color }))), ...places.map((p) => ({ p, color: p.kind === 'yard' ? '#263238' : '#6a1b9a' })), ...loose.map((p) => ({ p, color: '#9e9e9e' }))]
      .flatMap(({ p, color }) => (isPlaced(p) ? [{ type: 'Feature' as const, properties: { color, label: p.seq ? String(p.seq) : '' }, geometry: { type: 'Point' as const, coordinates: [p.lng, p.lat] } }] : []));
    map.on('load', () => {
      map.addSource('routes', { type: 'geojson', data: { type: 'FeatureCollection', features: lines } });
      map.addLayer({ id: 'routes', type: 'line', source: 'routes', paint: { 'line-color': ['get', 'color'], 'line-width': 3 } });
      map.addSource('places', { type: 'geojson', data: { type: 'FeatureCollection', features: points } });
      map.addLayer({ id: 'places', type: 'circle', source: 'places', paint: { 'circle-color': ['get', 'color'], 'circle-radius': 7, 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 } });
      const coords = points.map((f) => f.geometry.coordinates);
      if (coords.length > 0) {
        const lngs = coords.map((c) => c[0]);
        const lats = coords.map((c) => c[1]);
        map.fitBounds([[Math.min(...lngs), Math.min(...lats)], [Math.max(...lngs), Math.max(...lats)]], { padding: 40, duration: 0, maxZoom: 13 });
      }
    });
    return () => map.remove();
  }, [routes, places, loose, tiles]);
  return <Box ref={box} role="region" aria-label={title} sx={{ width: '100%', height: { xs: 360, md: 520 }, borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }} />;
}
