import { act, fireEvent, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { listParams, readListQuery, useListState, writeListQuery, type ListStateOptions } from './listState';

const options: ListStateOptions = { defaultPageSize: 25, defaultSort: { field: 'name', order: 'asc' }, sortFields: ['name', 'created_at'], filterFields: ['name', 'qty'] };
const q = (s: string) => new URLSearchParams(s);

describe('list state in the query string', () => {
  it('reads the defaults from an empty query', () => {
    expect(readListQuery(q(''), options)).toEqual({ page: 1, size: 25, search: '', sort: { field: 'name', order: 'asc' }, filter: null });
  });

  it('reads page, size, search, sort and filter under the list API’s names', () => {
    const s = readListQuery(q('page=3&size=50&search=%20ann%20&sort_by=created_at&order=desc&filter_field=qty&filter_operator=between&filter_value=1,5'), options);
    expect(s).toEqual({ page: 3, size: 50, search: 'ann', sort: { field: 'created_at', order: 'desc' }, filter: { field: 'qty', operator: 'between', value: '1,5' } });
    expect(listParams(s)).toEqual({ page: 3, size: 50, search: 'ann', sort_by: 'created_at', order: 'desc', filter_field: 'qty', filter_operator: 'between', filter_value: '1,5' });
  });

  it('ignores what is malformed or not offered by the list', () => {
    const s = readListQuery(q('page=-2&size=0&sort_by=password&filter_field=secret&filter_operator=contains&filter_value=x'), options);
    expect(s).toEqual(readListQuery(q(''), options));
    expect(readListQuery(q('page=abc&size=5000&filter_field=name&filter_operator=like&filter_value=x'), options)).toMatchObject({ page: 1, size: 25, filter: null });
    expect(readListQuery(q('filter_field=name&filter_operator=contains&filter_value='), options).filter).toBeNull();
  });

  it('writes only what differs from the defaults and keeps the page’s own keys', () => {
    const base = q('category_id=7&page=4');
    expect(writeListQuery(base, { page: 1, size: 25, search: '', sort: { field: 'name', order: 'asc' }, filter: null }, options).toString()).toBe('category_id=7');
    const next = writeListQuery(base, { page: 2, size: 10, search: 'diesel', sort: { field: 'name', order: 'desc' }, filter: { field: 'name', operator: 'contains', value: 'cl' } }, options);
    expect(Object.fromEntries(next)).toEqual({ category_id: '7', page: '2', size: '10', search: 'diesel', sort_by: 'name', order: 'desc', filter_field: 'name', filter_operator: 'contains', filter_value: 'cl' });
  });

  it('keeps "no sort" apart from "the default sort"', () => {
    const off = writeListQuery(q(''), { page: 1, size: 25, search: '', sort: null, filter: null }, options);
    expect(off.toString()).toBe('sort_by=');
    expect(readListQuery(off, options).sort).toBeNull();
    expect(listParams(readListQuery(off, options)).sort_by).toBeUndefined();
  });

  it('round-trips any state, and two lists on one page keep apart with a prefix', () => {
    const state = { page: 5, size: 100, search: 'a&b=c', sort: { field: 'created_at', order: 'desc' as const }, filter: { field: 'qty', operator: 'greaterThan' as const, value: '3' } };
    expect(readListQuery(writeListQuery(q(''), state, options), options)).toEqual(state);
    const shipTo = { ...options, prefix: 'shipto_' };
    const both = writeListQuery(writeListQuery(q(''), state, options), { ...state, page: 2 }, shipTo);
    expect(readListQuery(both, options).page).toBe(5);
    expect(readListQuery(both, shipTo).page).toBe(2);
  });
});

function Probe({ storage }: { storage?: 'url' | 'memory' }) {
  const s = useListState({ ...options, storage });
  const location = useLocation();
  return (
    <div>
      <output aria-label="url">{location.search}</output>
      <output aria-label="state">{JSON.stringify(s.params)}</output>
      <button onClick={() => s.setPage(s.page + 1)}>next page</button>
      <button onClick={() => s.setSort({ field: 'created_at', order: 'desc' })}>newest first</button>
      <button onClick={() => s.setSearch('  ann ')}>search ann</button>
      <button onClick={() => s.setFilter({ field: 'qty', operator: 'lessThan', value: '9' })}>few</button>
    </div>
  );
}

const shown = (label: string) => screen.getByRole('status', { name: label }).textContent;

describe('useListState', () => {
  it('starts from the URL and writes every change back to it', () => {
    renderWithProviders(<Probe />, { route: '/things?category_id=7&page=3&search=bob' });
    expect(JSON.parse(shown('state'))).toMatchObject({ page: 3, size: 25, search: 'bob', sort_by: 'name', order: 'asc' });
    fireEvent.click(screen.getByRole('button', { name: 'next page' }));
    expect(shown('url')).toBe('?category_id=7&page=4&search=bob');
    // A new sort, search or filter goes back to page 1.
    fireEvent.click(screen.getByRole('button', { name: 'newest first' }));
    expect(shown('url')).toBe('?category_id=7&search=bob&sort_by=created_at&order=desc');
    fireEvent.click(screen.getByRole('button', { name: 'next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'search ann' }));
    expect(shown('url')).toBe('?category_id=7&search=ann&sort_by=created_at&order=desc');
    fireEvent.click(screen.getByRole('button', { name: 'few' }));
    expect(JSON.parse(shown('state'))).toMatchObject({ page: 1, search: 'ann', sort_by: 'created_at', filter_field: 'qty', filter_operator: 'lessThan', filter_value: '9' });
  });

  it('keeps a section’s list in memory: the page URL does not change', () => {
    renderWithProviders(<Probe storage="memory" />, { route: '/customer/5?tab=ship-tos' });
    act(() => fireEvent.click(screen.getByRole('button', { name: 'next page' })));
    expect(JSON.parse(shown('state'))).toMatchObject({ page: 2 });
    expect(shown('url')).toBe('?tab=ship-tos');
  });
});
