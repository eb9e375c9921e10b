import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RouteMap } from './RouteMap';
import { ROUTE_COLORS } from './projection';
import type { MapRoute } from './types';

const yard = { key: 'y1', kind: 'yard' as const, label: 'Houston Yard', lat: 29.76, lng: -95.36 };
const routes: MapRoute[] = [
  { key: '7', name: 'T-101', path: [yard, { key: 's1', kind: 'stop', label: 'SO-1 Acme', seq: 1, lat: 29.8, lng: -95.4 }, { key: 's2', kind: 'stop', label: 'SO-2 Bolt', seq: 2, late: true, lat: 29.9, lng: -95.3 }, yard] },
  { key: '9', name: 'T-102', path: [yard, { key: 's3', kind: 'stop', label: 'SO-3 Core', seq: 1, lat: 29.6, lng: -95.2 }, { key: 'r1', kind: 'terminal', label: 'Galena Park', lat: 29.73, lng: -95.21 }, { key: 's4', kind: 'stop', label: 'SO-4 No coords', seq: 2 }, yard] },
];

describe('the plain route drawing (no tiles)', () => {
  it('draws a line per truck in its own colour through its placed stops, late stops red', () => {
    const { container } = render(<RouteMap routes={routes} places={[yard]} loose={[{ key: 'u', kind: 'stop', label: 'SO-9', lat: 29.7, lng: -95.5 }]} />);
    expect(screen.getByRole('img', { name: 'Map of the routes: 2 routes' })).toBeInTheDocument();
    const lines = [...container.querySelectorAll('polyline')];
    expect(lines.map((l) => l.getAttribute('stroke'))).toEqual([ROUTE_COLORS[0], ROUTE_COLORS[1]]);
    // T-101: yard, 2 stops, yard = 4 points; T-102: the stop without coordinates is left out.
    expect(lines.map((l) => l.getAttribute('points')!.split(' ').length)).toEqual([4, 4]);
    const late = container.querySelector('[data-late="true"] circle');
    expect(late?.getAttribute('fill')).toBe('#d32f2f');
    expect(container.querySelectorAll('[data-kind="loose"]')).toHaveLength(1);
    expect(container.querySelectorAll('[data-kind="yard"]').length).toBeGreaterThan(0);
    expect(screen.getByText('1 stop has no coordinates and is not drawn.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Legend' })).toHaveTextContent('T-101');
  });

  it('keeps the highlighted truck on top and dims the others', () => {
    const { container } = render(<RouteMap routes={routes} highlight="7" />);
    const groups = [...container.querySelectorAll('g[data-route]')];
    expect(groups.map((g) => g.getAttribute('data-route'))).toEqual(['9', '7']);
    expect(groups[0].getAttribute('opacity')).toBe('0.35');
    expect(groups[1].getAttribute('opacity')).toBe('1');
  });

  it('says so when nothing has coordinates', () => {
    render(<RouteMap routes={[]} />);
    expect(screen.getByText('No coordinates to draw')).toBeInTheDocument();
  });
});

describe('stops the payload flags', () => {
  it('rings a stop in delivery and a keep-full top-up only when the payload says so', () => {
    const flagged: MapRoute[] = [{ key: '7', name: 'T-101', path: [yard, { key: 's1', kind: 'stop', label: 'SO-1', seq: 1, lat: 29.8, lng: -95.4, inDelivery: true }, { key: 's2', kind: 'stop', label: 'SO-2', seq: 2, lat: 29.9, lng: -95.3, keepFull: true }, yard] }];
    const { container, unmount } = render(<RouteMap routes={flagged} />);
    expect(container.querySelector('[data-in-delivery="true"] title')?.textContent).toBe('1. SO-1 (in delivery)');
    expect(container.querySelector('[data-keep-full="true"] title')?.textContent).toBe('2. SO-2 (keep-full top-up)');
    expect(screen.getByRole('list', { name: 'Legend' })).toHaveTextContent(/In delivery.*Keep-full top-up/);
    unmount();
    const { container: plain } = render(<RouteMap routes={routes} />);
    expect(plain.querySelectorAll('[data-in-delivery], [data-keep-full]')).toHaveLength(0);
    expect(screen.getByRole('list', { name: 'Legend' })).not.toHaveTextContent(/In delivery|Keep-full/);
  });
});
