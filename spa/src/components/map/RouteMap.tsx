import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { RouteDrawing } from './RouteDrawing';
import type { RouteMapProps } from './types';

// MapLibre (~800 KB) is loaded only when tiles are configured: the main bundle does not carry it.
const MapLibreView = lazy(() => import('./MapLibreView'));

/** A failed map (tiles unreachable, no WebGL): fall back to the plain drawing. */
class Fallback extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** The routes on MapLibre tiles when a tile/style URL is set, else the plain SVG drawing. */
export function RouteMap(props: RouteMapProps) {
  const drawing = <RouteDrawing {...props} />;
  if (!props.tiles) return drawing;
  return (
    <Fallback fallback={drawing}>
      <Suspense fallback={<Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}><CircularProgress aria-label="Loading the map" /></Box>}>
        <MapLibreView {...props} />
      </Suspense>
    </Fallback>
  );
}

export type { MapPlace, MapRoute, RouteMapProps } from './types';
export { fitProjection, isPlaced, routeStyle, scaleBar, ROUTE_COLORS } from './projection';
