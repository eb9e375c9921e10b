import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { StatusChip, type StatusStyle } from '@/components/resource';
import { isRunning, useQboLatestJobQuery, type Job, type JobLogEntry } from './quickbooksApi';

const TABS = [
  { value: '/quickbook-online', label: 'Connection & customers' },
  { value: '/quickbook-online/map-items', label: 'Map Items' },
];

/** The two QuickBooks screens, as tabs under the page header. */
export function QuickbooksTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = pathname.startsWith('/quickbook-online/map-items') ? TABS[1].value : TABS[0].value;
  return (
    <Tabs value={current} onChange={(_, v: string) => navigate(v)} variant="scrollable" allowScrollButtonsMobile aria-label="QuickBooks Online" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      {TABS.map((t) => (
        <Tab key={t.value} value={t.value} label={t.label} />
      ))}
    </Tabs>
  );
}

const OUTCOME: Record<string, StatusStyle> = {
  queued: { label: 'Queued', color: 'default' },
  running: { label: 'Running', color: 'info' },
  retrying: { label: 'Retrying', color: 'warning' },
  succeeded: { label: 'Done', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

/**
 * A started job followed through the job log until it ends (as the CSV import shows its progress):
 * a bar while it runs, then its outcome and error. `onFinished` runs once when it ends.
 */
export function JobProgress({ job, onFinished }: { job: Job; onFinished?: (entry: JobLogEntry) => void }) {
  const [done, setDone] = useState(false);
  const [startedAt] = useState(() => Date.now());
  const latest = useQboLatestJobQuery({ kind: job.kind }, { pollingInterval: done ? 0 : 1500, refetchOnMountOrArgChange: true });
  // Only an answer read after this job started: the cache may hold the previous job of the kind.
  const fresh = (latest.fulfilledTimeStamp ?? 0) >= startedAt;
  const entry = fresh ? (latest.data ?? null) : null;
  const running = !entry || isRunning(entry);
  const told = useRef(false);
  useEffect(() => {
    if (entry && !running && !told.current) {
      told.current = true;
      setDone(true);
      onFinished?.(entry);
    }
  }, [entry, running, onFinished]);
  const label = entry?.message || 'Starting…';
  const status = entry?.status ?? 'queued';
  return (
    <Box data-testid="job-progress" data-status={status} role="status" sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 0.75 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <StatusChip value={status} styles={OUTCOME} />
      </Box>
      {running && <LinearProgress aria-label={`${label}: running`} />}
      {status === 'failed' && entry?.error && (
        <Alert severity="error" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {entry.error}
        </Alert>
      )}
    </Box>
  );
}

/** A small count tile: what waits to be synced. */
export function PendingTile({ label, count, testId }: { label: string; count: number; testId: string }) {
  return (
    <Box data-testid={testId} sx={{ flex: '1 1 120px', border: 1, borderColor: 'divider', borderRadius: 2, px: 2, py: 1.5 }}>
      <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
        {count}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

export function MaybeChip({ show, label }: { show: boolean; label: string }) {
  return show ? <Chip size="small" variant="outlined" color="info" label={label} /> : null;
}
