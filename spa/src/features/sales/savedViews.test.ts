import { describe, expect, it } from 'vitest';
import { loadViews, saveViews, type SavedView } from './savedViews';

const view: SavedView = { name: 'Open this week', status: 'verified', customerId: 4, start: '2026-11-23', end: '2026-11-29' };

describe('saved views of the order list', () => {
  it('round-trips through this browser’s local storage under sales_order_views', () => {
    expect(loadViews()).toEqual([]);
    saveViews([view]);
    expect(JSON.parse(localStorage.getItem('sales_order_views') ?? 'null')).toEqual([view]);
    expect(loadViews()).toEqual([view]);
  });

  it('ignores a broken or foreign value instead of failing the page', () => {
    localStorage.setItem('sales_order_views', '{not json');
    expect(loadViews()).toEqual([]);
    localStorage.setItem('sales_order_views', JSON.stringify({ name: 'x' }));
    expect(loadViews()).toEqual([]);
    localStorage.setItem('sales_order_views', JSON.stringify([null, { name: 3 }, view]));
    expect(loadViews()).toEqual([view]);
  });
});
