import { useEffect, useMemo, useRef } from 'react';
import type { ListState } from './listState';
import { applyLocal } from './localList';
import type { ListFetchState, ResourceApi } from './resourceApi';
import type { ColumnDef, ListParams } from './types';

export interface ResourceListOptions<T> {
  columns: readonly ColumnDef<T>[];
  /** Extra list parameters owned by the page (e.g. a status tab); a change goes back to page 1. */
  extraParams?: Record<string, string | number | boolean | undefined>;
  /** 'all' lists (read whole): keeps the rows a page-owned filter allows, before search and sort. */
  rowFilter?: (row: T) => boolean;
}

export interface ResourceList<T> {
  /** The rows to show: the server's page, or for 'all' lists every matching row (the grid pages them). */
  rows: T[];
  /** Rows in the whole list (all pages). */
  rowCount: number;
  /** 'all' lists: read whole, searched, filtered and sorted in the browser. */
  clientSide: boolean;
  /** The query sent (list state + extraParams). */
  params: ListParams;
  /** Loading, fetching, error and refetch of the list call. */
  fetch: ListFetchState<T>;
}

/** Fetches the list a ListState describes: the server's page, or an 'all' list filtered locally. */
export function useResourceList<T, C, U>(resource: ResourceApi<T, C, U>, state: ListState, options: ResourceListOptions<T>): ResourceList<T> {
  const { columns, extraParams, rowFilter } = options;
  const clientSide = resource.config.listKind === 'all';
  const params: ListParams = { ...state.params, ...extraParams };
  const fetch = resource.useList(params);

  // A page-owned parameter that changes sends the list back to page 1.
  const extraKey = JSON.stringify(extraParams ?? {});
  const lastExtraKey = useRef(extraKey);
  const { resetPage } = state;
  useEffect(() => {
    if (lastExtraKey.current === extraKey) return;
    lastExtraKey.current = extraKey;
    resetPage();
  }, [extraKey, resetPage]);

  // A link or Back to a page that no longer exists (rows were deleted): show the last page instead.
  const pages = clientSide ? undefined : fetch.data?.pages;
  const { page, setPage } = state;
  useEffect(() => {
    if (pages !== undefined && pages > 0 && page > pages) setPage(pages);
  }, [pages, page, setPage]);

  const { search, filter, sort } = state;
  const localRows = useMemo(
    () =>
      clientSide
        ? applyLocal(rowFilter ? (fetch.rows ?? []).filter(rowFilter) : (fetch.rows ?? []), columns, { search, filter, sortField: sort?.field, order: sort?.order })
        : [],
    [clientSide, fetch.rows, columns, search, filter, sort?.field, sort?.order, rowFilter],
  );
  return {
    rows: clientSide ? localRows : (fetch.data?.items ?? []),
    rowCount: clientSide ? localRows.length : (fetch.data?.total ?? 0),
    clientSide,
    params,
    fetch,
  };
}
