import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActionIn, ActionResult } from './driverApi';
import { closeDb, DB_NAME, enqueue, getBlob, listConflicts, pendingActions, pendingCount } from './queue';
import { syncQueue, toActionIn, type SyncDeps } from './sync';

const bytes = (s: string) => new TextEncoder().encode(s).buffer;

async function queueDelivery(orderId: number, photos = 1) {
  return enqueue(
    {
      kind: 'record_delivery',
      order_id: orderId,
      order_number: `SO-${orderId}`,
      order_version: 'v1',
      taken_at: new Date().toISOString(),
      payload: { lines: [{ line_item_id: 1, delivered_quantity: '100' }], signer_name: 'Pat' },
    },
    [
      { role: 'signature', bytes: bytes('sig'), type: 'image/png', name: 'signature.png' },
      ...Array.from({ length: photos }, (_, i) => ({ role: 'photo' as const, bytes: bytes(`photo${i}`), type: 'image/jpeg', name: `p${i}.jpg` })),
    ],
  );
}

function queueStart(orderId: number) {
  return enqueue({ kind: 'start_delivery', order_id: orderId, order_number: `SO-${orderId}`, order_version: 'v1', taken_at: new Date().toISOString(), payload: {} });
}

function fakeServer(outcome: (a: ActionIn) => ActionResult['outcome'] = () => 'applied') {
  const sent: ActionIn[][] = [];
  let n = 0;
  const deps: SyncDeps = {
    upload: vi.fn(async (file) => `tenants/t/${file.name}/${++n}`),
    send: vi.fn(async (actions: ActionIn[]) => {
      sent.push(actions);
      return actions.map((a) => ({
        client_action_id: a.client_action_id,
        kind: a.kind,
        order_id: a.order_id,
        outcome: outcome(a),
        reason: outcome(a) === 'applied' ? '' : 'The office cancelled it.',
        replayed: false,
        received_at: new Date().toISOString(),
      }));
    }),
  };
  return { deps, sent };
}

const networkDown = { status: 'FETCH_ERROR', message: 'The server could not be reached.' };

beforeEach(async () => {
  await closeDb();
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(DB_NAME);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
});

afterEach(async () => {
  await closeDb();
});

describe('the offline queue', () => {
  it('keeps actions in the order taken, with their files, across a reopened database (a reload)', async () => {
    await queueStart(7);
    const delivery = await queueDelivery(7, 2);
    await queueStart(8);
    await closeDb(); // the page is reloaded: a new connection reads what was stored
    const pending = await pendingActions();
    expect(pending.map((a) => [a.kind, a.order_id])).toEqual([
      ['start_delivery', 7],
      ['record_delivery', 7],
      ['start_delivery', 8],
    ]);
    expect(await pendingCount()).toBe(3);
    expect(pending[1].files.map((f) => f.role)).toEqual(['signature', 'photo', 'photo']);
    const sig = await getBlob(delivery.files[0].blob_id);
    expect(new TextDecoder().decode(sig!.bytes)).toBe('sig');
    expect(new Set(pending.map((a) => a.client_action_id)).size).toBe(3);
  });

  it('syncs in order: files first, then one batch; applied actions and their files leave the queue', async () => {
    await queueStart(7);
    const delivery = await queueDelivery(7, 1);
    const { deps, sent } = fakeServer();
    const report = await syncQueue(deps);
    expect(report).toMatchObject({ applied: 2, notApplied: 0, remaining: 0 });
    expect(deps.upload).toHaveBeenCalledTimes(2);
    expect(sent).toHaveLength(1);
    expect(sent[0].map((a) => a.kind)).toEqual(['start_delivery', 'record_delivery']);
    const body = sent[0][1].payload as { signature_key: string; photo_keys: string[] };
    expect(body.signature_key).toMatch(/signature\.png/);
    expect(body.photo_keys).toHaveLength(1);
    expect(await pendingCount()).toBe(0);
    expect(await getBlob(delivery.files[0].blob_id)).toBeUndefined();
  });

  it('keeps everything, in order, when the network fails; a retry does not upload a file twice', async () => {
    await queueDelivery(7, 1);
    await queueStart(8);
    const { deps } = fakeServer();
    vi.mocked(deps.send).mockRejectedValueOnce(networkDown);
    const first = await syncQueue(deps);
    expect(first.error).toMatch(/could not be reached/);
    expect(first.remaining).toBe(2);
    expect(deps.upload).toHaveBeenCalledTimes(2);
    const second = await syncQueue(deps);
    expect(second).toMatchObject({ applied: 2, remaining: 0 });
    expect(deps.upload).toHaveBeenCalledTimes(2); // keys were kept on the queued action
  });

  it('stops at an action whose file cannot be uploaded yet, so later actions never overtake it', async () => {
    await queueDelivery(7, 0);
    await queueStart(8);
    const { deps } = fakeServer();
    vi.mocked(deps.upload).mockRejectedValueOnce(networkDown);
    const report = await syncQueue(deps);
    expect(deps.send).not.toHaveBeenCalled();
    expect(report.remaining).toBe(2);
  });

  it('moves conflicts to the list the driver sees, and only once per sync run', async () => {
    await queueDelivery(7, 0);
    await queueStart(9);
    const { deps } = fakeServer((a) => (a.order_id === 9 ? 'conflict' : 'applied'));
    const [a, b] = await Promise.all([syncQueue(deps), syncQueue(deps)]); // two triggers at once
    expect(a).toBe(b);
    expect(deps.send).toHaveBeenCalledTimes(1);
    const conflicts = await listConflicts();
    expect(conflicts.map((c) => [c.order_id, c.outcome, c.reason])).toEqual([[9, 'conflict', 'The office cancelled it.']]);
    expect(await pendingCount()).toBe(0);
  });

  it('a refused file (415) turns its action into a rejection instead of blocking the queue', async () => {
    await queueDelivery(7, 1);
    await queueStart(8);
    const { deps, sent } = fakeServer();
    vi.mocked(deps.upload).mockResolvedValueOnce('sig-key').mockRejectedValueOnce({ status: 415, message: 'Send a PNG or JPEG file.' });
    const report = await syncQueue(deps);
    expect(report).toMatchObject({ applied: 1, notApplied: 1, remaining: 0 });
    expect(sent[0].map((x) => x.order_id)).toEqual([8]);
    expect((await listConflicts())[0]).toMatchObject({ order_id: 7, outcome: 'rejected' });
  });

  it('builds the request body with the client action id the server dedupes on', async () => {
    const queued = await queueDelivery(3, 0);
    queued.files[0].key = 'k1';
    const body = toActionIn(queued);
    expect(body).toMatchObject({ client_action_id: queued.client_action_id, kind: 'record_delivery', order_id: 3, order_version: 'v1' });
    expect(body.payload).toMatchObject({ signature_key: 'k1', photo_keys: [] });
  });
});
