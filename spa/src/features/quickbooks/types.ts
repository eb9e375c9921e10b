/**
 * TEMPORARY: the QuickBooks API contract, written before the server's routes landed. Replaced by
 * types read off the generated schema (src/lib/api/schema.d.ts) as soon as they are there.
 */
export interface Connection {
  state: 'disconnected' | 'connected' | 'reconnect';
  realm_id: string;
  company_name: string;
  connected_at: string | null;
  last_sync_at: string | null;
  last_error: string;
  pending: { customers: number; items: number; invoices: number };
}
export interface CustomerSync {
  id: number;
  name: string;
  external_id: string;
  sync_state: string;
  last_sync_error: string;
}
export interface CustomerSyncQuery {
  page?: number;
  size?: number;
  search?: string;
}
export interface QboItem {
  id: string;
  name: string;
  type: string;
  active: boolean;
}
export interface ItemMapRow {
  kind: 'product' | 'fee' | 'tax';
  local_id: number;
  local_name: string;
  qbo_item_id: string | null;
  qbo_item_name: string | null;
  suggestion: { id: string; name: string } | null;
  sync_state: string;
  last_sync_error: string;
}
export interface ItemMapUpdate {
  kind: ItemMapRow['kind'];
  local_id: number;
  qbo_item_id: string | null;
}
export interface SyncSelectedItems {
  items: { kind: ItemMapRow['kind']; local_id: number }[];
}
/** A queued job: its message id and kind; the job log entry of that kind shows its progress. */
export interface Job {
  job_id: string;
  kind: string;
}
/** The job log entry (GET /job-log). */
export interface JobLogEntry {
  id: number;
  kind: string;
  message: string;
  status: string;
  error: string;
  created: string;
}
