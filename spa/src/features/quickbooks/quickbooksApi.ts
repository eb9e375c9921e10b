import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type { PageOf } from '@/lib/api/types';
import type { CallbackBody, ConnectStart, Connection, CustomerSync, CustomerSyncBody, CustomerSyncQuery, ItemMapRow, ItemMapUpdate, Job, JobLogEntry, QboItem, SyncSelectedItems, TaxCode, TaxSettings } from './types';

export type { Connection, CustomerSync, CustomerSyncQuery, ItemMapRow, ItemMapUpdate, Job, JobLogEntry, QboItem, SyncSelectedItems, TaxCode, TaxSettings };

export const SERVICE = 'QuickBooks Online';
export const MSG_CONNECTION = 'Failed to fetch the QuickBooks Online connection';
export const MSG_CONNECT = 'Failed to connect to QuickBooks Online';
export const MSG_DISCONNECT = 'Failed to disconnect QuickBooks Online';
export const MSG_CUSTOMERS = 'Failed to fetch the customers';
export const MSG_SYNC = 'Failed to start the sync';
export const MSG_ITEMS = 'Failed to fetch the QuickBooks Online items';
export const MSG_MAP = 'Failed to save the mapping';
export const MSG_TAX_CODES = 'Failed to fetch the QuickBooks Online tax codes';
export const MSG_TAX_SETTINGS = 'Failed to save the tax codes';

function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['QboConnection', 'QboCustomer', 'QboItemMap', 'QboItem', 'Onboarding', 'JobLog'] });
// A sync or a mapping changes the pending counts, the rows' states and the onboarding checklist.
const AFTER_SYNC = ['QboConnection', 'QboCustomer', 'QboItemMap', 'Onboarding', 'JobLog'] as const;

export const quickbooksApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    qboConnection: build.query<Connection, void>({
      query: () => ({ url: '/quickbook/connection' }),
      transformResponse: (env) => unwrap<Connection>(env),
      transformErrorResponse: (e) => failed(e, MSG_CONNECTION),
      providesTags: ['QboConnection'],
    }),
    qboConnect: build.mutation<ConnectStart, void>({
      query: () => ({ url: '/quickbook/connect', method: 'POST' }),
      transformResponse: (env) => unwrap<ConnectStart>(env),
      transformErrorResponse: (e) => failed(e, MSG_CONNECT),
    }),
    qboCallback: build.mutation<Connection, CallbackBody>({
      query: (body) => ({ url: '/quickbook/callback', method: 'POST', body }),
      transformResponse: (env) => unwrap<Connection>(env),
      transformErrorResponse: (e) => failed(e, MSG_CONNECT),
      invalidatesTags: [...AFTER_SYNC],
    }),
    qboDisconnect: build.mutation<unknown, void>({
      query: () => ({ url: '/quickbook/disconnect', method: 'POST' }),
      transformErrorResponse: (e) => failed(e, MSG_DISCONNECT),
      invalidatesTags: [...AFTER_SYNC],
    }),
    qboCustomers: build.query<PageOf<CustomerSync>, CustomerSyncQuery>({
      query: (params) => ({ url: '/intuit/customers', params: { ...params } }),
      transformResponse: (env) => unwrap<PageOf<CustomerSync>>(env),
      transformErrorResponse: (e) => failed(e, MSG_CUSTOMERS),
      providesTags: ['QboCustomer'],
    }),
    qboSyncCustomers: build.mutation<Job, CustomerSyncBody>({
      query: (body) => ({ url: '/intuit/customers/sync', method: 'POST', body }),
      transformResponse: (env) => unwrap<Job>(env),
      transformErrorResponse: (e) => failed(e, MSG_SYNC),
      invalidatesTags: [...AFTER_SYNC],
    }),
    qboImportCustomers: build.mutation<Job, void>({
      query: () => ({ url: '/intuit/customers/import', method: 'POST' }),
      transformResponse: (env) => unwrap<Job>(env),
      transformErrorResponse: (e) => failed(e, MSG_SYNC),
      invalidatesTags: [...AFTER_SYNC],
    }),
    qboItems: build.query<QboItem[], void>({
      query: () => ({ url: '/quickbook/items' }),
      transformResponse: (env) => unwrap<QboItem[]>(env),
      transformErrorResponse: (e) => failed(e, MSG_ITEMS),
      providesTags: ['QboItem'],
    }),
    qboTaxCodes: build.query<TaxCode[], void>({
      query: () => ({ url: '/quickbook/tax-codes' }),
      transformResponse: (env) => unwrap<TaxCode[]>(env),
      transformErrorResponse: (e) => failed(e, MSG_TAX_CODES),
    }),
    qboSetTaxSettings: build.mutation<Connection, TaxSettings>({
      query: (body) => ({ url: '/quickbook/tax-settings', method: 'PUT', body }),
      transformResponse: (env) => unwrap<Connection>(env),
      transformErrorResponse: (e) => failed(e, MSG_TAX_SETTINGS),
      invalidatesTags: ['QboConnection'],
    }),
    qboItemMap: build.query<ItemMapRow[], void>({
      query: () => ({ url: '/quickbook/item-map' }),
      transformResponse: (env) => unwrap<ItemMapRow[]>(env),
      transformErrorResponse: (e) => failed(e, MSG_ITEMS),
      providesTags: ['QboItemMap'],
    }),
    qboSetItemMap: build.mutation<unknown, ItemMapUpdate>({
      query: (body) => ({ url: '/quickbook/item-map', method: 'PUT', body }),
      transformErrorResponse: (e) => failed(e, MSG_MAP),
      invalidatesTags: ['QboItemMap', 'Onboarding'],
    }),
    qboSyncSelectedItems: build.mutation<Job, SyncSelectedItems>({
      query: (body) => ({ url: '/quickbook/sync-selected-items', method: 'POST', body }),
      transformResponse: (env) => unwrap<Job>(env),
      transformErrorResponse: (e) => failed(e, MSG_SYNC),
      invalidatesTags: [...AFTER_SYNC, 'QboItem'],
    }),
    qboSyncPayments: build.mutation<Job, void>({
      query: () => ({ url: '/quickbook/sync-payments', method: 'POST' }),
      transformResponse: (env) => unwrap<Job>(env),
      transformErrorResponse: (e) => failed(e, MSG_SYNC),
      invalidatesTags: [...AFTER_SYNC],
    }),
    /**
     * The newest job log entry of a kind: how a started sync is followed to its end. A job is
     * logged (queued) when it is sent, so right after the start answers, the newest entry of its
     * kind is the one just started.
     */
    qboLatestJob: build.query<JobLogEntry | null, { kind: string }>({
      query: ({ kind }) => ({ url: '/job-log', params: { kind, page: 1, size: 1 } }),
      transformResponse: (env) => unwrap<PageOf<JobLogEntry>>(env).items[0] ?? null,
      providesTags: ['JobLog'],
    }),
  }),
});

export const {
  useQboConnectionQuery,
  useQboConnectMutation,
  useQboCallbackMutation,
  useQboDisconnectMutation,
  useQboCustomersQuery,
  useQboSyncCustomersMutation,
  useQboImportCustomersMutation,
  useQboItemsQuery,
  useQboItemMapQuery,
  useQboTaxCodesQuery,
  useQboSetTaxSettingsMutation,
  useQboSetItemMapMutation,
  useQboSyncSelectedItemsMutation,
  useQboSyncPaymentsMutation,
  useQboLatestJobQuery,
} = quickbooksApi;

/** A job that has not finished yet. */
export const isRunning = (job: Pick<JobLogEntry, 'status'>) => job.status === 'queued' || job.status === 'running' || job.status === 'retrying';
