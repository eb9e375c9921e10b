import { describe, expect, it } from 'vitest';
import { fitProjection, isPlaced, routeStyle, scaleBar } from './projection';

// Houston-area points (the demo's yards and ship-tos are around 29.7 N, 95.4 W).
const west = { lat: 29.76, lng: -95.6 };
const east = { lat: 29.76, lng: -95.2 };
const north = { lat: 30.06, lng: -95.4 };
const south = { lat: 29.46, lng: -95.4 };

describe('projection of coordinates for the plain drawing', () => {
  it('puts north up and east right', () => {
    const { project } = fitProjection([west, east, north, south], 800, 520);
    expect(project(east).x).toBeGreaterThan(project(west).x);
    expect(project(north).y).toBeLessThan(project(south).y);
  });

  it('keeps distances true: a mile east is as long on screen as a mile north', () => {
    const { project, pxPerMile } = fitProjection([west, east, north, south], 800, 520);
    // 0.1 degree of latitude = 6.9 miles; 0.1 degree of longitude at 29.76 N = 6.9 * cos(29.76) = 6.0 miles.
    const ns = project({ lat: 29.86, lng: -95.4 }).y - project({ lat: 29.76, lng: -95.4 }).y;
    const ew = project({ lat: 29.76, lng: -95.3 }).x - project({ lat: 29.76, lng: -95.4 }).x;
    expect(Math.abs(ew / ns)).toBeCloseTo(Math.cos((29.76 * Math.PI) / 180), 2);
    expect(Math.abs(ns) / pxPerMile).toBeCloseTo(6.9055, 2);
  });

  it('fits every point inside the box with its margin, the widest span filling it', () => {
    const pts = [west, east, north, south, { lat: 29.9, lng: -95.55 }];
    const { project } = fitProjection(pts, 800, 520, 24);
    const xy = pts.map(project);
    for (const p of xy) {
      expect(p.x).toBeGreaterThanOrEqual(24 - 1e-9);
      expect(p.x).toBeLessThanOrEqual(776 + 1e-9);
      expect(p.y).toBeGreaterThanOrEqual(24 - 1e-9);
      expect(p.y).toBeLessThanOrEqual(496 + 1e-9);
    }
    // North-south (41 mi) is the longer side in a box wider than tall: it spans the inner height.
    const ys = xy.map((p) => p.y);
    expect(Math.max(...ys) - Math.min(...ys)).toBeCloseTo(472, 6);
  });

  it('centres one place (no division by zero) and skips points without coordinates', () => {
    const { project } = fitProjection([west, { lat: Number.NaN, lng: 1 }], 800, 520);
    expect(project(west)).toEqual({ x: 400, y: 260 });
    expect(isPlaced({ lat: 29.7, lng: -95.3 })).toBe(true);
    expect(isPlaced({ lat: null as unknown as number, lng: -95.3 })).toBe(false);
    expect(isPlaced({ lat: 91, lng: 0 })).toBe(false);
    expect(fitProjection([], 100, 100).project(west)).toEqual({ x: 50, y: 50 });
  });

  it('gives every truck its own colour, dashed once the ten colours are used', () => {
    const styles = Array.from({ length: 12 }, (_, i) => routeStyle(i));
    expect(new Set(styles.slice(0, 10).map((s) => s.color)).size).toBe(10);
    expect(styles[0].dash).toBeUndefined();
    expect(styles[10]).toEqual({ color: styles[0].color, dash: '8 4' });
  });

  it('picks a round scale bar length', () => {
    expect(scaleBar(10, 120)).toEqual({ miles: 10, px: 100 });
    expect(scaleBar(3, 120)).toEqual({ miles: 20, px: 60 });
    expect(scaleBar(1.5, 120).miles).toBe(50);
  });
});
