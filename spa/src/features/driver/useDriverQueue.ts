import { useCallback, useEffect, useState } from 'react';
import { sendActions, uploadProof } from './driverApi';
import { listConflicts, pendingActions, QUEUE_CHANGED_EVENT, type DriverConflict, type QueuedAction } from './queue';
import { syncQueue, type SyncReport } from './sync';

const RETRY_MS = 20_000;

function isOnline(): boolean {
  return typeof navigator === 'undefined' ? true : navigator.onLine;
}

export interface DriverQueueState {
  online: boolean;
  pending: QueuedAction[];
  conflicts: DriverConflict[];
  syncing: boolean;
  lastError: string | null;
  syncNow: () => Promise<SyncReport | null>;
}

/** The queue as the page shows it: pending actions, conflicts, online state; syncs when the
 * connection comes back, when something is queued, and every 20 s while anything waits. */
export function useDriverQueue(onSynced?: (report: SyncReport) => void): DriverQueueState {
  const [online, setOnline] = useState(isOnline);
  const [pending, setPending] = useState<QueuedAction[]>([]);
  const [conflicts, setConflicts] = useState<DriverConflict[]>([]);
  const [syncing, setSyncing] = useState(false);
  const [lastError, setLastError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const [p, c] = await Promise.all([pendingActions(), listConflicts()]);
    setPending(p);
    setConflicts(c);
    return p.length;
  }, []);

  const syncNow = useCallback(async () => {
    if (!isOnline()) return null;
    setSyncing(true);
    try {
      const report = await syncQueue({ upload: uploadProof, send: sendActions });
      setLastError(report.error ?? null);
      if (report.applied + report.notApplied > 0) onSynced?.(report);
      return report;
    } finally {
      setSyncing(false);
      await refresh();
    }
  }, [onSynced, refresh]);

  useEffect(() => {
    let live = true;
    const onChange = () => {
      void refresh().then((n) => {
        if (live && n > 0 && isOnline()) void syncNow();
      });
    };
    const goOnline = () => {
      setOnline(true);
      void syncNow();
    };
    const goOffline = () => setOnline(false);
    window.addEventListener(QUEUE_CHANGED_EVENT, onChange);
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    const timer = window.setInterval(() => {
      if (isOnline()) void pendingActions().then((p) => p.length > 0 && live && void syncNow());
    }, RETRY_MS);
    void Promise.all([pendingActions(), listConflicts()]).then(([p, c]) => {
      if (!live) return;
      setPending(p);
      setConflicts(c);
      if (p.length > 0 && isOnline()) void syncNow();
    });
    return () => {
      live = false;
      window.removeEventListener(QUEUE_CHANGED_EVENT, onChange);
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
      window.clearInterval(timer);
    };
  }, [refresh, syncNow]);

  return { online, pending, conflicts, syncing, lastError, syncNow };
}
