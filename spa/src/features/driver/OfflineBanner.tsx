import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { DriverQueueState } from './useDriverQueue';

/** "offline — N actions waiting"; online with a queue: "syncing"/"N waiting" and a retry. */
export function OfflineBanner({ queue }: { queue: DriverQueueState }) {
  const n = queue.pending.length;
  const waiting = `${n} ${n === 1 ? 'action' : 'actions'} waiting`;
  if (!queue.online) {
    return (
      <Alert severity="warning" variant="filled" role="status" data-testid="offline-banner" sx={{ mb: 1.5 }}>
        offline — {waiting}
      </Alert>
    );
  }
  if (n === 0) return null;
  return (
    <Alert
      severity="info"
      role="status"
      data-testid="sync-banner"
      sx={{ mb: 1.5 }}
      action={
        <Button color="inherit" size="small" onClick={() => void queue.syncNow()} disabled={queue.syncing}>
          Sync now
        </Button>
      }
    >
      {queue.syncing ? `Sending — ${waiting}` : waiting}
      {queue.lastError ? ` (${queue.lastError})` : ''}
    </Alert>
  );
}
