/** The QuickBooks API's shapes, read off the generated schema (src/lib/api/schema.d.ts). */
import type { ApiBody, ApiData, ApiQuery, PageItem } from '@/lib/api/types';

export type Connection = ApiData<'/api/quickbook/connection', 'get'>;
export type ConnectStart = ApiData<'/api/quickbook/connect', 'post'>;
export type CallbackBody = ApiBody<'/api/quickbook/callback', 'post'>;
export type CustomerSync = PageItem<'/api/intuit/customers'>;
export type CustomerSyncQuery = ApiQuery<'/api/intuit/customers', 'get'>;
export type CustomerSyncBody = ApiBody<'/api/intuit/customers/sync', 'post'>;
export type QboItem = ApiData<'/api/quickbook/items', 'get'>[number];
export type TaxCode = ApiData<'/api/quickbook/tax-codes', 'get'>[number];
export type TaxSettings = ApiBody<'/api/quickbook/tax-settings', 'put'>;
export type ItemMapRow = ApiData<'/api/quickbook/item-map', 'get'>[number];
export type ItemMapUpdate = ApiBody<'/api/quickbook/item-map', 'put'>;
export type SyncSelectedItems = ApiBody<'/api/quickbook/sync-selected-items', 'post'>;
/** A queued job: its message id and kind; the newest job log entry of that kind shows its progress. */
export type Job = ApiData<'/api/intuit/customers/sync', 'post'>;
export type JobLogEntry = PageItem<'/api/job-log'>;
