import { useCallback } from 'react';
import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type { ApiRoute } from '@/lib/api/types';
import { apiDownload, apiRequest } from '@/lib/api/http';
import type { ListParams, PageOf, RowId } from './types';

/**
 * Where a resource lives. Every path is relative to the API base and typed from the generated
 * schema (lib/api/types.ts ApiRoute): a path the server does not have, or without the method the
 * kit calls on it, does not compile.
 */
export interface ResourceApiConfig {
  /** Unique prefix of the endpoint names, e.g. 'user' → userList, userCreate, ... */
  key: string;
  /** RTK Query tag of the resource. */
  tag: string;
  /** List path (GET), relative to the API base: '/user-account' or '/state/states/all'. */
  listPath: ApiRoute<'get'>;
  /** Create path (POST); defaults to listPath. */
  createPath?: ApiRoute<'post'>;
  /** Path of one item (PUT to update, DELETE to delete): (id) => `/region/${id}`. */
  itemPath: (id: RowId) => ApiRoute<'put'> | ApiRoute<'delete'>;
  /** 'paged' lists answer {items, total, page, size, pages}; 'all' lists answer an array. */
  listKind?: 'paged' | 'all';
  /** Other tags that a write to this resource makes stale. */
  invalidates?: string[];
  /** Server-side CSV export of the list with the same query (GET, e.g. '/user-account/export'). */
  exportPath?: ApiRoute<'get'>;
  /** CSV import (upload, preview, confirm) under this path: POST `${importPath}`, `${importPath}/{id}/confirm`. */
  importPath?: ApiRoute<'post'>;
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

export interface ListFetchState<T> {
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
  useList: (params: ListParams, options?: { skip?: boolean }) => ListFetchState<Item>;
  useCreate: () => [(body: CreateBody) => Promise<Item>, { isLoading: boolean }];
  useUpdate: () => [(id: RowId, body: UpdateBody) => Promise<Item>, { isLoading: boolean }];
  useRemove: () => [(id: RowId) => Promise<unknown>, { isLoading: boolean }];
  /** Every row matching the params (pages of 500), for CSV export. */
  fetchAll: (params: Omit<ListParams, 'page' | 'size'>) => Promise<Item[]>;
  /** The server's CSV of the list with these params, when the resource has an exportPath. */
  exportCsv?: (params: Omit<ListParams, 'page' | 'size'>) => Promise<Blob>;
}

interface QueryHookResult {
  data?: unknown;
  isLoading: boolean;
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}
type MutationHook<Arg> = () => readonly [(arg: Arg) => { unwrap: () => Promise<unknown> }, { isLoading: boolean }];
type DynamicEndpoints<CreateBody, UpdateBody> = Record<`${string}List`, { useQuery: (arg: ListParams | undefined, opts: { skip?: boolean }) => QueryHookResult }> &
  Record<`${string}Create`, { useMutation: MutationHook<CreateBody> }> &
  Record<`${string}Update`, { useMutation: MutationHook<{ id: RowId; body: UpdateBody }> }> &
  Record<`${string}Delete`, { useMutation: MutationHook<RowId> }>;

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

  const enhanced = api.enhanceEndpoints({ addTagTypes: [tag, ...(config.invalidates ?? [])] });
  const injected = enhanced.injectEndpoints({
    overrideExisting: false,
    endpoints: (build) => ({
      [`${key}List`]: build.query<unknown, ListParams | undefined>({
        query: (params) => (kind === 'all' || !params ? { url: listPath } : { url: listPath, params }),
        transformResponse: (env: unknown) => (config.dedupeById ? dedupeList(unwrap(env)) : unwrap(env)),
        providesTags: [{ type: tag, id: 'LIST' }],
        ...(config.keepUnusedDataFor !== undefined ? { keepUnusedDataFor: config.keepUnusedDataFor } : {}),
      }),
      [`${key}Create`]: build.mutation<unknown, CreateBody>({
        query: (body) => ({ url: createPath, method: 'POST', body }),
        transformResponse: (env: unknown) => unwrap(env),
        invalidatesTags: invalidated,
      }),
      [`${key}Update`]: build.mutation<unknown, { id: RowId; body: UpdateBody }>({
        query: ({ id, body }) => ({ url: itemPath(id), method: 'PUT', body }),
        transformResponse: (env: unknown) => unwrap(env),
        invalidatesTags: invalidated,
      }),
      [`${key}Delete`]: build.mutation<unknown, RowId>({
        query: (id) => ({ url: itemPath(id), method: 'DELETE' }),
        invalidatesTags: invalidated,
      }),
    }),
  });
  // The endpoint names are built from `key`, so RTK Query cannot name them in its types: read them
  // through the shape every query and mutation endpoint has; the typed surface is ResourceApi below.
  const ep = injected.endpoints as unknown as DynamicEndpoints<CreateBody, UpdateBody>;

  return {
    config,
    useList(params, options) {
      const q = ep[`${key}List`].useQuery(kind === 'all' ? undefined : params, { skip: options?.skip });
      if (kind === 'all') {
        const rows = (Array.isArray(q.data) ? q.data : []) as Item[];
        return { rows, isLoading: q.isLoading, isFetching: q.isFetching, error: q.error as ApiError | undefined, refetch: () => void q.refetch() };
      }
      return { data: q.data as PageOf<Item> | undefined, isLoading: q.isLoading, isFetching: q.isFetching, error: q.error as ApiError | undefined, refetch: () => void q.refetch() };
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
      ? (params) => apiDownload(config.exportPath!, params, 'text/csv')
      : undefined,
    async fetchAll(params) {
      if (kind === 'all') {
        const res = await apiRequest(listPath);
        return unwrap<Item[]>(res.message) ?? [];
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
