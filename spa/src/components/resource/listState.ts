import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { FILTER_OPERATORS, type ActiveFilter, type FilterOperator, type ListParams } from './types';

/** A server sort: `field` is the list's `sort_by` name (a column's sortField). */
export interface ListSort {
  field: string;
  order: 'asc' | 'desc';
}

/** What a list shows: page (from 1), page size, applied search, sort and filter. */
export interface ListQuery {
  page: number;
  size: number;
  search: string;
  /** The sort sent to the server: the chosen one, else the default; null when the user turned it off. */
  sort: ListSort | null;
  filter: ActiveFilter | null;
}

export interface ListStateOptions {
  defaultPageSize: number;
  defaultSort?: ListSort;
  /**
   * 'url' (default): the state lives in the query string, under the list API's own names
   * (?page=2&size=25&search=ann&sort_by=name&order=desc&filter_field=…), so a reload, a shared link
   * or Back from a detail page shows the same list. 'memory': component state (a list that is a
   * section of another page).
   */
  storage?: 'url' | 'memory';
  /** Prefix of the query keys, for two URL-synced lists on one page ('shipto_' → ?shipto_page=2). */
  prefix?: string;
  /** The sort_by names this list accepts; others in the URL are ignored. */
  sortFields?: readonly string[];
  /** The filter fields this list accepts; others in the URL are ignored. */
  filterFields?: readonly string[];
}

export interface ListState extends ListQuery {
  /** page, size, search, sort_by, order, filter_*: the list API's query. */
  params: ListParams;
  setPage: (page: number) => void;
  /** A new page size goes back to page 1. */
  setSize: (size: number) => void;
  /** A new search term, sort or filter goes back to page 1. */
  setSearch: (search: string) => void;
  setSort: (sort: ListSort | null) => void;
  setFilter: (filter: ActiveFilter | null) => void;
  /** Back to page 1 (e.g. a page-owned parameter changed). */
  resetPage: () => void;
}

const KEYS = ['page', 'size', 'search', 'sort_by', 'order', 'filter_field', 'filter_operator', 'filter_value'] as const;
const MAX_SIZE = 1000;

function positiveInt(raw: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!raw || !/^\d+$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : fallback;
}

/** Reads a list's state from a query string; anything malformed falls back to the default. */
export function readListQuery(query: URLSearchParams, options: ListStateOptions): ListQuery {
  const p = options.prefix ?? '';
  const get = (k: (typeof KEYS)[number]) => query.get(p + k);
  const sortBy = get('sort_by');
  const order = get('order') === 'desc' ? 'desc' : 'asc';
  const sortOk = (f: string) => !options.sortFields || options.sortFields.includes(f);
  let sort: ListSort | null | undefined;
  if (sortBy === '') sort = null;
  else if (sortBy && sortOk(sortBy)) sort = { field: sortBy, order };
  const ff = get('filter_field');
  const fo = get('filter_operator');
  const fv = get('filter_value');
  const filterOk = !!ff && (!options.filterFields || options.filterFields.includes(ff)) && FILTER_OPERATORS.includes(fo as FilterOperator) && !!fv;
  return {
    page: positiveInt(get('page'), 1),
    size: positiveInt(get('size'), options.defaultPageSize, MAX_SIZE),
    search: get('search')?.trim() ?? '',
    sort: sort === undefined ? (options.defaultSort ?? null) : sort,
    filter: filterOk ? { field: ff, operator: fo as FilterOperator, value: fv } : null,
  };
}

/**
 * Writes a list's state into a copy of the query string. Defaults are left out (page 1, the default
 * size and sort), keys of other lists and of the page (?category_id=…) are kept.
 */
export function writeListQuery(query: URLSearchParams, state: ListQuery, options: ListStateOptions): URLSearchParams {
  const p = options.prefix ?? '';
  const next = new URLSearchParams(query);
  for (const k of KEYS) next.delete(p + k);
  if (state.page > 1) next.set(`${p}page`, String(state.page));
  if (state.size !== options.defaultPageSize) next.set(`${p}size`, String(state.size));
  if (state.search) next.set(`${p}search`, state.search);
  const def = options.defaultSort;
  const isDefault = state.sort === null ? !def : !!def && def.field === state.sort.field && def.order === state.sort.order;
  if (!isDefault) {
    next.set(`${p}sort_by`, state.sort?.field ?? '');
    if (state.sort?.order === 'desc') next.set(`${p}order`, 'desc');
  }
  if (state.filter) {
    next.set(`${p}filter_field`, state.filter.field);
    next.set(`${p}filter_operator`, state.filter.operator);
    next.set(`${p}filter_value`, state.filter.value);
  }
  return next;
}

/** The list API's query for a state. */
export function listParams(state: ListQuery): ListParams {
  return {
    page: state.page,
    size: state.size,
    search: state.search || undefined,
    sort_by: state.sort?.field,
    order: state.sort?.order,
    filter_field: state.filter?.field,
    filter_operator: state.filter?.operator,
    filter_value: state.filter?.value,
  };
}

/** A list's page, size, search, sort and filter, kept in the URL (or in memory); see ListStateOptions. */
export function useListState(options: ListStateOptions): ListState {
  const [urlQuery, setUrlQuery] = useSearchParams();
  const [memoryQuery, setMemoryQuery] = useState(() => new URLSearchParams());
  const inUrl = (options.storage ?? 'url') === 'url';
  const query = inUrl ? urlQuery : memoryQuery;
  // Pages pass options as literals: compare them by value so the state keeps its identity.
  const optionsKey = JSON.stringify([options.defaultPageSize, options.defaultSort, options.prefix, options.sortFields, options.filterFields]);

  return useMemo(() => {
    const [defaultPageSize, defaultSort, prefix, sortFields, filterFields] = JSON.parse(optionsKey) as [number, ListSort?, string?, string[]?, string[]?];
    const opts: ListStateOptions = { defaultPageSize, defaultSort: defaultSort ?? undefined, prefix: prefix ?? undefined, sortFields: sortFields ?? undefined, filterFields: filterFields ?? undefined };
    const current = readListQuery(query, opts);
    // One write per user action: each setter computes the whole next state.
    const write = (change: Partial<ListQuery>) => {
      const next = writeListQuery(query, { ...current, ...change }, opts);
      if (next.toString() === query.toString()) return;
      if (inUrl) setUrlQuery(next, { replace: true });
      else setMemoryQuery(next);
    };
    return {
      ...current,
      params: listParams(current),
      setPage: (page) => write({ page: Math.max(1, Math.floor(page)) }),
      setSize: (size) => write({ size, page: 1 }),
      setSearch: (search) => write({ search: search.trim(), page: 1 }),
      setSort: (sort) => write({ sort, page: 1 }),
      setFilter: (filter) => write({ filter, page: 1 }),
      resetPage: () => write({ page: 1 }),
    };
  }, [query, inUrl, setUrlQuery, optionsKey]);
}
