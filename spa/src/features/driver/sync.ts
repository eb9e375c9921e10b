/**
 * Sends the queue to the server, oldest first. Files go first (their keys are kept on the action, so
 * a retry does not upload again), then the actions in one batch in queue order. Each answered action
 * leaves the queue: applied ones disappear, conflicts and rejections go to the conflicts list. A
 * network failure stops the run and keeps the rest, in order, for the next one. The server applies
 * a client_action_id once, so sending an action again (a lost answer, two tabs) changes nothing.
 */
import { isApiError } from '@/lib/api/errors';
import type { ActionIn, ActionResult, ProofRole } from './driverApi';
import { getBlob, pendingActions, saveAction, settle, type QueuedAction, type StoredBlob } from './queue';

export interface SyncDeps {
  upload: (file: StoredBlob, role: ProofRole) => Promise<string>;
  send: (actions: ActionIn[]) => Promise<ActionResult[]>;
}

export interface SyncReport {
  applied: number;
  notApplied: number;
  remaining: number;
  error?: string;
}

const MAX_BATCH = 100;

/** No connection, a server error, the session or a permission: try again later, keep the order. */
function retryLater(err: unknown): boolean {
  if (!isApiError(err)) return false;
  const s = err.status;
  return typeof s !== 'number' || s >= 500 || s === 401 || s === 403 || s === 408 || s === 429;
}

function message(err: unknown): string {
  return isApiError(err) ? err.message : String((err as Error)?.message ?? err);
}

/** The request body of a queued action, with the uploaded files' keys filled in. */
export function toActionIn(a: QueuedAction): ActionIn {
  const payload: Record<string, unknown> = { ...a.payload };
  if (a.kind === 'record_delivery') {
    const signature = a.files.find((f) => f.role === 'signature');
    payload.signature_key = signature?.key ?? '';
    payload.photo_keys = a.files.filter((f) => f.role === 'photo').map((f) => f.key);
  }
  return {
    client_action_id: a.client_action_id,
    kind: a.kind,
    order_id: a.order_id,
    order_version: a.order_version,
    payload,
    taken_at: a.taken_at,
  };
}

let running: Promise<SyncReport> | null = null;

/** One sync at a time per page; a call during a run waits for that run. */
export function syncQueue(deps: SyncDeps): Promise<SyncReport> {
  running ??= run(deps).finally(() => {
    running = null;
  });
  return running;
}

async function run(deps: SyncDeps): Promise<SyncReport> {
  const report: SyncReport = { applied: 0, notApplied: 0, remaining: 0 };
  const queue = (await pendingActions()).slice(0, MAX_BATCH);
  const ready: QueuedAction[] = [];
  for (const action of queue) {
    try {
      for (const file of action.files) {
        if (file.key) continue;
        const blob = await getBlob(file.blob_id);
        if (!blob) throw new Error('A photo or signature of this delivery is missing on this phone.');
        file.key = await deps.upload(blob, file.role);
        await saveAction(action);
      }
      ready.push(action);
    } catch (err) {
      if (retryLater(err)) {
        report.error = message(err);
        break; // keep the order: nothing after an action that could not be sent
      }
      // The server refused a file (type, size): this action can never pass; the driver is told.
      await settle(action, conflictOf(action, 'rejected', message(err)));
      report.notApplied += 1;
    }
  }
  if (ready.length > 0) {
    try {
      const results = await deps.send(ready.map(toActionIn));
      const byId = new Map(results.map((r) => [r.client_action_id, r]));
      for (const action of ready) {
        const r = byId.get(action.client_action_id);
        if (!r) continue;
        if (r.outcome === 'applied') {
          await settle(action);
          report.applied += 1;
        } else {
          await settle(action, conflictOf(action, r.outcome, r.reason ?? ''));
          report.notApplied += 1;
        }
      }
    } catch (err) {
      report.error = message(err);
    }
  }
  report.remaining = (await pendingActions()).length;
  return report;
}

function conflictOf(action: QueuedAction, outcome: 'conflict' | 'rejected', reason: string) {
  return {
    client_action_id: action.client_action_id,
    kind: action.kind,
    order_id: action.order_id,
    order_number: action.order_number,
    outcome,
    reason,
    at: new Date().toISOString(),
  };
}
