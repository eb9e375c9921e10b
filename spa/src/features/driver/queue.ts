/**
 * The driver's offline queue, in IndexedDB (`fueldesk-driver`): every action the driver takes is
 * written here first (with its signature and photos as bytes) and removed only once the server has
 * answered it. Stores:
 * - `actions`: the queue, in the order taken (auto-increment `seq`);
 * - `blobs`: the signature and photos of queued actions (ArrayBuffer + type: clones everywhere);
 * - `cache`: the last answers of today's orders and the daily summary, for offline reading;
 * - `conflicts`: actions the server did not apply (conflict or rejected), until the driver dismisses them.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ProofRole } from './driverApi';

export const DB_NAME = 'fueldesk-driver';
export const QUEUE_CHANGED_EVENT = 'driver-queue-changed';

export type ActionKind = 'start_delivery' | 'record_delivery';

export interface QueuedFile {
  blob_id: string;
  role: ProofRole;
  /** The server's file key once uploaded (kept, so a retry does not upload twice). */
  key?: string;
}

export interface QueuedAction {
  seq?: number;
  client_action_id: string;
  kind: ActionKind;
  order_id: number;
  order_number: string;
  order_version: string;
  payload: Record<string, unknown>;
  taken_at: string;
  files: QueuedFile[];
}

export interface StoredBlob {
  id: string;
  bytes: ArrayBuffer;
  type: string;
  name: string;
}

export interface DriverConflict {
  client_action_id: string;
  kind: ActionKind;
  order_id: number;
  order_number: string;
  outcome: 'conflict' | 'rejected';
  reason: string;
  at: string;
}

interface CacheEntry {
  key: string;
  saved_at: string;
  data: unknown;
}

interface DriverDB extends DBSchema {
  actions: { key: number; value: QueuedAction };
  blobs: { key: string; value: StoredBlob };
  cache: { key: string; value: CacheEntry };
  conflicts: { key: string; value: DriverConflict };
}

let dbPromise: Promise<IDBPDatabase<DriverDB>> | null = null;

export function db(): Promise<IDBPDatabase<DriverDB>> {
  dbPromise ??= openDB<DriverDB>(DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('actions', { keyPath: 'seq', autoIncrement: true });
      database.createObjectStore('blobs', { keyPath: 'id' });
      database.createObjectStore('cache', { keyPath: 'key' });
      database.createObjectStore('conflicts', { keyPath: 'client_action_id' });
    },
    terminated() {
      dbPromise = null;
    },
  });
  return dbPromise;
}

/** For tests (and logout, which deletes the database): forget the open connection. */
export async function closeDb(): Promise<void> {
  if (!dbPromise) return;
  const open = await dbPromise;
  open.close();
  dbPromise = null;
}

function changed(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(QUEUE_CHANGED_EVENT));
}

export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** Queue an action with its files in one transaction: either all of it is stored or nothing. */
export async function enqueue(
  action: Omit<QueuedAction, 'seq' | 'files' | 'client_action_id'> & { client_action_id?: string },
  files: { role: ProofRole; bytes: ArrayBuffer; type: string; name: string }[] = [],
): Promise<QueuedAction> {
  const database = await db();
  const tx = database.transaction(['actions', 'blobs'], 'readwrite');
  const queued: QueuedAction = { ...action, client_action_id: action.client_action_id ?? newId(), files: [] };
  for (const f of files) {
    const id = newId();
    await tx.objectStore('blobs').put({ id, bytes: f.bytes, type: f.type, name: f.name });
    queued.files.push({ blob_id: id, role: f.role });
  }
  queued.seq = await tx.objectStore('actions').add(queued);
  await tx.done;
  changed();
  return queued;
}

export async function pendingActions(): Promise<QueuedAction[]> {
  return (await db()).getAll('actions'); // key order = the order taken
}

export async function pendingCount(): Promise<number> {
  return (await db()).count('actions');
}

export async function getBlob(id: string): Promise<StoredBlob | undefined> {
  return (await db()).get('blobs', id);
}

export async function saveAction(action: QueuedAction): Promise<void> {
  await (await db()).put('actions', action);
}

/** Remove an answered action and its files; a conflict is kept for the driver to read. */
export async function settle(action: QueuedAction, conflict?: DriverConflict): Promise<void> {
  const database = await db();
  const tx = database.transaction(['actions', 'blobs', 'conflicts'], 'readwrite');
  if (action.seq !== undefined) await tx.objectStore('actions').delete(action.seq);
  for (const f of action.files) await tx.objectStore('blobs').delete(f.blob_id);
  if (conflict) await tx.objectStore('conflicts').put(conflict);
  await tx.done;
  changed();
}

export async function listConflicts(): Promise<DriverConflict[]> {
  const all = await (await db()).getAll('conflicts');
  return all.sort((a, b) => a.at.localeCompare(b.at));
}

export async function dismissConflict(id: string): Promise<void> {
  await (await db()).delete('conflicts', id);
  changed();
}

export async function cachePut(key: string, data: unknown): Promise<void> {
  await (await db()).put('cache', { key, data, saved_at: new Date().toISOString() });
}

export async function cacheGet<T>(key: string): Promise<{ data: T; saved_at: string } | undefined> {
  const entry = await (await db()).get('cache', key);
  return entry ? { data: entry.data as T, saved_at: entry.saved_at } : undefined;
}
