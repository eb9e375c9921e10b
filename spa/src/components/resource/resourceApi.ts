import { useCallback } from 'react';
import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import { apiDownload, apiRequest } from '@/lib/api/http';
import type { ListParams, PageOf, RowId } from './types';

export interface ResourceApiConfig {
  /** Unique prefix of the endpoint names, e.g. 'user' → userList, userCreate, ... */
  key: string;
  /** RTK Query tag of the resource. */
  tag: string;
  /** List path, relative to the API base: '/user-account' or '/state/states/all'. */
  listPath: string;
  /** Create path (POST); defaults to listPath. */
  createPath?: string;
  /** Path of one item (GET/PUT/DELETE). */
  itemPath: (id: RowId) => string;
  /** 'paged' lists answer {items, total, page, size, pages}; 'all' lists answer an array. */
  listKind?: 'paged' | 'all';
  /** Other tags that a write to this resource makes stale. */
  invalidates?: string[];
  /** Server-side CSV export of the list with the same query (e.g. '/user-account/export'). */
  exportPath?: string;
  /** CSV import (upload, preview, confirm) under this path: POST `${importPath}`, `${importPath}/{id}/confirm`. */
  importPath?: string;
  /** Drop rows whose id repeats (e.g. a row that moved between pages while they were fetched). */
  dedupeById?: boolean;
  /** Seconds an unused list stays cached (RTK Query's keepUnusedDataFor; default 60). */
  keepUnusedDataFor?: number;
}

/** Keeps the first row of each id. */
export function uniqueById<T>(rows: readonly T[], getId: (row: T) => unknown = (r) => (r as { id?: unknown }).id): T[] {
  const seen = new Set<unknown>();
  return rows.filter((r) => {
    const id = getId(r);
    if (id === undefined || id === null) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function dedupeList(data: unknown): unknown {
  if (Array.isArray(data)) return uniqueById(data);
  if (data && typeof data === 'object' && Array.isArray((data as { items?: unknown }).items)) {
    const page = data as { items: unknown[] };
    return { ...page, items: uniqueById(page.items) };
  }
  return data;
}

export interface ListState<T> {
  data?: PageOf<T>;
  /** 'all' lists: every row, for client-side paging. */
  rows?: T[];
  isLoading: boolean;
  isFetching: boolean;
  error?: ApiError;
  refetch: () => void;
}

export interface ResourceApi<Item, CreateBody, UpdateBody> {
  config: ResourceApiConfig;
  useList: (params: ListParams, options?: { skip?: boolean }) => ListState<Item>;
  useCreate: () => [(body: CreateBody) => Promise<Item>, { isLoading: boolean }];
  useUpdate: () => [(id: RowId, body: UpdateBody) => Promise<Item>, { isLoading: boolean }];
  useRemove: () => [(id: RowId) => Promise<unknown>, { isLoading: boolean }];
  /** Every row matching the params (pages of 500), for CSV export. */
  fetchAll: (params: Omit<ListParams, 'page' | 'size'>) => Promise<Item[]>;
  /** The server's CSV of the list with these params, when the resource has an exportPath. */
  exportCsv?: (params: Omit<ListParams, 'page' | 'size'>) => Promise<Blob>;
}

const EXPORT_PAGE = 500;
const EXPORT_MAX_ROWS = 50_000;

/**
 * Adds list / create / update / delete endpoints of one resource to the single API slice.
 * The type parameters are the generated types of the resource (see lib/api/types.ts), so a
 * feature writes `createResourceApi<PageItem<'/api/x'>, ApiBody<'/api/x','post'>, ...>(...)`.
 */
export function createResourceApi<Item, CreateBody = Partial<Item>, UpdateBody = Partial<Item>>(
  config: ResourceApiConfig,
): ResourceApi<Item, CreateBody, UpdateBody> {
  const { key, tag, listPath, itemPath } = config;
  const createPath = config.createPath ?? listPath;
  const kind = config.listKind ?? 'paged';
  const invalidated = [{ type: tag, id: 'LIST' }, ...(config.invalidates ?? []).map((t) => ({ type: t, id: 'LIST' }))];

  // RTK Query's endpoint names are dynamic here, so its inferred types are widened on purpose;
  // the typed surface is the ResourceApi returned below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const enhanced: any = api.enhanceEndpoints({ addTagTypes: [tag, ...(config.invalidates ?? [])] });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const injected: any = enhanced.injectEndpoints({
    overrideExisting: false,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    endpoints: (build: any) => ({
      [`${key}List`]: build.query({
        query: (params: ListParams) => (kind === 'all' ? { url: listPath } : { url: listPath, params }),
        transformResponse: (env: unknown) => (config.dedupeById ? dedupeList(unwrap(env)) : unwrap(env)),
        providesTags: [{ type: tag, id: 'LIST' }],
        ...(config.keepUnusedDataFor !== undefined ? { keepUnusedDataFor: config.keepUnusedDataFor } : {}),
      }),
      [`${key}Create`]: build.mutation({
        query: (body: CreateBody) => ({ url: createPath, method: 'POST', body }),
        transformResponse: (env: unknown) => unwrap(env),
        invalidatesTags: invalidated,
      }),
      [`${key}Update`]: build.mutation({
        query: ({ id, body }: { id: RowId; body: UpdateBody }) => ({ url: itemPath(id), method: 'PUT', body }),
        transformResponse: (env: unknown) => unwrap(env),
        invalidatesTags: invalidated,
      }),
      [`${key}Delete`]: build.mutation({
        query: (id: RowId) => ({ url: itemPath(id), method: 'DELETE' }),
        invalidatesTags: invalidated,
      }),
    }),
  });
  const ep = injected.endpoints;

  return {
    config,
    useList(params, options) {
      const q = ep[`${key}List`].useQuery(kind === 'all' ? undefined : params, { skip: options?.skip });
      if (kind === 'all') {
        const rows = (Array.isArray(q.data) ? q.data : []) as Item[];
        return { rows, isLoading: q.isLoading, isFetching: q.isFetching, error: q.error as ApiError | undefined, refetch: q.refetch };
      }
      return { data: q.data as PageOf<Item> | undefined, isLoading: q.isLoading, isFetching: q.isFetching, error: q.error as ApiError | undefined, refetch: q.refetch };
    },
    useCreate() {
      const [trigger, state] = ep[`${key}Create`].useMutation();
      const run = useCallback((body: CreateBody) => trigger(body).unwrap() as Promise<Item>, [trigger]);
      return [run, { isLoading: state.isLoading }];
    },
    useUpdate() {
      const [trigger, state] = ep[`${key}Update`].useMutation();
      const run = useCallback((id: RowId, body: UpdateBody) => trigger({ id, body }).unwrap() as Promise<Item>, [trigger]);
      return [run, { isLoading: state.isLoading }];
    },
    useRemove() {
      const [trigger, state] = ep[`${key}Delete`].useMutation();
      const run = useCallback((id: RowId) => trigger(id).unwrap(), [trigger]);
      return [run, { isLoading: state.isLoading }];
    },
    exportCsv: config.exportPath
      ? (params) => apiDownload(config.exportPath!, params as Record<string, string | number | boolean | undefined>, 'text/csv')
      : undefined,
    async fetchAll(params) {
      if (kind === 'all') {
        const res = await apiRequest(listPath);
        return (unwrap<Item[]>(res.message) ?? []) as Item[];
      }
      const out: Item[] = [];
      for (let page = 1; out.length < EXPORT_MAX_ROWS; page++) {
        const res = await apiRequest(listPath, { params: { ...params, page, size: EXPORT_PAGE } });
        const data = unwrap<PageOf<Item>>(res.message);
        out.push(...(data?.items ?? []));
        if (!data || page >= data.pages) break;
      }
      return out;
    },
  };
}
