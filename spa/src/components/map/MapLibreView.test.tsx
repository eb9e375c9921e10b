import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTE_COLORS } from './projection';
import type { MapRoute } from './types';

// maplibre-gl mocked: jsdom has no WebGL. The mock records what the view asks of the map, and lets
// the test fire the map's events ('load', 'idle', 'error') as MapLibre would.
type Handler = (e?: unknown) => void;
const maps: FakeMap[] = [];
class FakeMap {
  options: Record<string, unknown>;
  handlers = new Map<string, Handler[]>();
  sources = new Map<string, { data: { features: { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }[] } }>();
  layers: { id: string; type: string }[] = [];
  bounds: unknown = null;
  removed = false;
  constructor(options: Record<string, unknown>) {
    this.options = options;
    maps.push(this);
  }
  on(event: string, h: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), h]);
    return this;
  }
  off(event: string, h: Handler) {
    this.handlers.set(event, (this.handlers.get(event) ?? []).filter((x) => x !== h));
    return this;
  }
  fire(event: string, e?: unknown) {
    for (const h of [...(this.handlers.get(event) ?? [])]) h(e);
  }
  addSource(id: string, s: never) {
    this.sources.set(id, s);
  }
  addLayer(l: { id: string; type: string }) {
    this.layers.push(l);
  }
  paint: Record<string, unknown> = {};
  setPaintProperty(layer: string, name: string, value: unknown) {
    this.paint[`${layer}.${name}`] = value;
  }
  fitBounds(b: unknown) {
    this.bounds = b;
  }
  getContainer() {
    return this.options.container as HTMLElement;
  }
  queryRenderedFeatures({ layers }: { layers: string[] }) {
    return layers.flatMap((id) => this.sources.get(id)?.data.features ?? []);
  }
  remove() {
    this.removed = true;
  }
}
class FakeMarker {
  element: HTMLElement;
  lngLat: unknown = null;
  constructor({ element }: { element: HTMLElement }) {
    this.element = element;
  }
  setLngLat(ll: unknown) {
    this.lngLat = ll;
    return this;
  }
  addTo(map: FakeMap) {
    map.getContainer().appendChild(this.element);
    return this;
  }
  remove() {
    this.element.remove();
  }
}
vi.mock('maplibre-gl/dist/maplibre-gl-csp.js', () => ({ default: { Map: FakeMap, Marker: FakeMarker, setWorkerUrl: vi.fn() } }));
vi.mock('maplibre-gl/dist/maplibre-gl-csp-worker.js?url', () => ({ default: '/assets/maplibre-worker.js' }));
vi.mock('maplibre-gl/dist/maplibre-gl.css', () => ({}));

const { default: MapLibreView, NO_STYLE, NO_WEBGL, styleFor } = await import('./MapLibreView');

const yard = { key: 'y1', kind: 'yard' as const, label: 'Houston Yard', lat: 29.76, lng: -95.36 };
const routes: MapRoute[] = [
  { key: '7', name: 'T-101', path: [yard, { key: 's1', kind: 'stop', label: 'SO-1 Acme', seq: 1, lat: 29.8, lng: -95.4, inDelivery: true }, { key: 's2', kind: 'stop', label: 'SO-2 Bolt', seq: 2, late: true, lat: 29.9, lng: -95.3 }, yard] },
  { key: '9', name: 'T-102', path: [yard, { key: 's3', kind: 'stop', label: 'SO-3 Core', seq: 1, lat: 29.6, lng: -95.2, keepFull: true }, { key: 's4', kind: 'stop', label: 'SO-4 No coords', seq: 2 }, yard] },
];
const STYLE = 'http://127.0.0.1:9/style.json';

let webgl = true;
beforeEach(() => {
  maps.length = 0;
  webgl = true;
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(((kind: string) => (webgl && kind.startsWith('webgl') ? ({} as RenderingContext) : null)) as never);
});
afterEach(() => vi.restoreAllMocks());

describe('the MapLibre route map (maplibre-gl mocked)', () => {
  it('builds the map on the style URL, draws a line per truck, numbered stop markers and the yards, and says when it is drawn', () => {
    render(<MapLibreView routes={routes} places={[yard]} loose={[{ key: 'u', kind: 'stop', label: 'SO-9', lat: 29.7, lng: -95.5 }]} tiles={STYLE} />);
    const box = screen.getByTestId('route-maplibre');
    expect(maps).toHaveLength(1);
    const map = maps[0];
    expect(map.options.style).toBe(STYLE);
    expect(map.options.container).toBe(box);
    expect(box).toHaveAttribute('data-map-state', 'loading');

    act(() => map.fire('load'));
    const lines = map.sources.get('routes')!.data.features;
    expect(lines.map((f) => f.properties.color)).toEqual([ROUTE_COLORS[0], ROUTE_COLORS[1]]);
    // T-102's stop without coordinates is left out of its line: yard, stop, yard.
    expect(lines.map((f) => (f.geometry.coordinates as unknown[]).length)).toEqual([4, 3]);
    expect(map.layers.map((l) => `${l.id}:${l.type}`)).toEqual(['routes:line', 'loose:circle']);
    expect(map.sources.get('loose')!.data.features.map((f) => f.properties.label)).toEqual(['SO-9']);
    expect(box.querySelector('[data-kind="yard"]')).toHaveAttribute('aria-label', 'Yard: Houston Yard');
    expect(map.bounds).toEqual([[-95.5, 29.6], [-95.2, 29.9]]);

    const markers = [...box.querySelectorAll<HTMLElement>('[data-kind="stop"]')];
    expect(markers.map((m) => m.textContent)).toEqual(['1', '2', '1']);
    expect(markers[0]).toHaveAttribute('data-in-delivery', 'true');
    expect(markers[1]).toHaveAttribute('data-late', 'true');
    expect(markers[1].title).toBe('2. SO-2 Bolt (late)');
    expect(markers[2]).toHaveAttribute('data-keep-full', 'true');
    expect(markers[0]).not.toHaveAttribute('data-late');

    act(() => map.fire('idle'));
    expect(box).toHaveAttribute('data-map-state', 'ready');
    expect(box).toHaveAttribute('data-rendered-lines', '2');
    expect(box).toHaveAttribute('data-rendered-loose', '1');
    expect(screen.getByRole('list', { name: 'Legend' })).toHaveTextContent(/T-101.*T-102.*In delivery.*Keep-full top-up.*Not planned/);
  });

  it('shows no in-delivery or keep-full marker unless the payload says so', () => {
    const plain = routes.map((r) => ({ ...r, path: r.path.map(({ inDelivery: _a, keepFull: _b, ...p }) => p) }));
    render(<MapLibreView routes={plain} tiles={STYLE} />);
    act(() => maps[0].fire('load'));
    expect(document.querySelectorAll('[data-in-delivery], [data-keep-full]')).toHaveLength(0);
    expect(screen.getByRole('list', { name: 'Legend' })).not.toHaveTextContent(/In delivery|Keep-full/);
  });

  it('builds the map again only when the routes change, not on a re-render with equal data', () => {
    const { rerender } = render(<MapLibreView routes={routes} tiles={STYLE} />);
    rerender(<MapLibreView routes={routes.map((r) => ({ ...r }))} tiles={STYLE} />);
    expect(maps).toHaveLength(1);
    rerender(<MapLibreView routes={routes.slice(0, 1)} tiles={STYLE} />);
    expect(maps).toHaveLength(2);
    expect(maps[0].removed).toBe(true);
  });

  it('puts the highlighted truck\'s route on top (thicker, the others faded) without rebuilding the map', () => {
    const { rerender } = render(<MapLibreView routes={routes} tiles={STYLE} highlight="9" />);
    act(() => maps[0].fire('load'));
    expect(maps[0].paint['routes.line-width']).toEqual(['case', ['==', ['get', 'key'], '9'], 5, 3]);
    rerender(<MapLibreView routes={routes} tiles={STYLE} highlight={null} />);
    expect(maps[0].paint['routes.line-width']).toBe(3);
    expect(maps[0].paint['routes.line-opacity']).toBe(1);
    expect(maps).toHaveLength(1);
  });

  it('makes a raster style of a tile template', () => {
    expect(styleFor('http://127.0.0.1:9/tiles/{z}/{x}/{y}.png')).toEqual({
      version: 8,
      sources: { base: { type: 'raster', tiles: ['http://127.0.0.1:9/tiles/{z}/{x}/{y}.png'], tileSize: 256 } },
      layers: [{ id: 'base', type: 'raster', source: 'base' }],
    });
    expect(styleFor(STYLE)).toBe(STYLE);
  });

  it('falls back to the plain drawing with a note when the browser has no WebGL', () => {
    webgl = false;
    render(<MapLibreView routes={routes} tiles={STYLE} />);
    expect(maps).toHaveLength(0);
    expect(screen.getByText(NO_WEBGL)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Map of the routes: 2 routes' })).toBeInTheDocument();
  });

  it('falls back to the drawing when the style cannot be loaded, but keeps the map for a tile error after it loaded', () => {
    render(<MapLibreView routes={routes} tiles={STYLE} />);
    act(() => maps[0].fire('load'));
    act(() => maps[0].fire('error', { error: new Error('tile 404') }));
    expect(screen.getByTestId('route-maplibre')).toBeInTheDocument();

    render(<MapLibreView routes={routes} tiles="http://127.0.0.1:9/missing.json" />);
    act(() => maps[1].fire('error', { error: new Error('404') }));
    expect(screen.getByText(NO_STYLE)).toBeInTheDocument();
    expect(maps[1].removed).toBe(true);
  });
});
