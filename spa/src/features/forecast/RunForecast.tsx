import PlayArrow from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { StatusChip, type StatusStyle } from '@/components/resource';
import { forecastApi, useLatestJobQuery, useRunForecastMutation, type ForecastRun, type JobLogEntry } from './forecastApi';
import { useAppDispatch } from '@/lib/session/hooks';

const OUTCOME: Record<string, StatusStyle> = {
  queued: { label: 'Queued', color: 'default' },
  running: { label: 'Running', color: 'info' },
  retrying: { label: 'Retrying', color: 'warning' },
  succeeded: { label: 'Done', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

export function jobIsRunning(entry: Pick<JobLogEntry, 'status'> | null | undefined): boolean {
  return !entry || ['queued', 'running', 'retrying'].includes(entry.status);
}

/** A started run followed through the job log (the newest entry of its kind) until it ends. */
function RunProgress({ run, onFinished }: { run: ForecastRun; onFinished: (entry: JobLogEntry) => void }) {
  const [done, setDone] = useState(false);
  const [startedAt] = useState(() => Date.now());
  const latest = useLatestJobQuery({ kind: run.kind }, { pollingInterval: done ? 0 : 1500, refetchOnMountOrArgChange: true });
  // Only an answer read after this run started: the cache may hold the previous run.
  const fresh = (latest.fulfilledTimeStamp ?? 0) >= startedAt;
  const entry = fresh ? (latest.data ?? null) : null;
  const running = jobIsRunning(entry);
  const told = useRef(false);
  useEffect(() => {
    if (entry && !running && !told.current) {
      told.current = true;
      setDone(true);
      onFinished(entry);
    }
  }, [entry, running, onFinished]);
  const status = entry?.status ?? 'queued';
  const label = status === 'succeeded' ? 'Forecast run finished' : status === 'failed' ? 'Forecast run failed' : 'Forecasting every keep-full tank…';
  return (
    <Box data-testid="run-progress" data-status={status} role="status" sx={{ mb: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: running ? 0.75 : 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <StatusChip value={status} styles={OUTCOME} />
        {entry?.finished_at && (
          <Typography variant="caption" color="text.secondary">
            {new Date(entry.finished_at).toLocaleTimeString()}
          </Typography>
        )}
      </Box>
      {running && <LinearProgress aria-label="Forecast run in progress" />}
      {status === 'failed' && entry?.error && (
        <Alert severity="error" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {entry.error}
        </Alert>
      )}
    </Box>
  );
}

/** "Run forecast now": queues the run, then shows its progress and refreshes the lists when it ends. */
export function useRunForecast() {
  const dispatch = useAppDispatch();
  const [start, state] = useRunForecastMutation();
  const [run, setRun] = useState<ForecastRun | null>(null);
  const onFinished = useCallback(
    (entry: JobLogEntry) => {
      if (entry.status === 'succeeded') toast.success('Forecast updated');
      dispatch(forecastApi.util.invalidateTags([{ type: 'ForecastDue', id: 'LIST' }, 'ForecastTank']));
    },
    [dispatch],
  );
  const button = (
    <Button
      variant="outlined"
      startIcon={<PlayArrow />}
      disabled={state.isLoading}
      onClick={async () => {
        try {
          setRun(await start().unwrap());
        } catch (e) {
          toast.error((e as { message?: string })?.message || 'The forecast could not be started.');
        }
      }}
    >
      Run forecast now
    </Button>
  );
  const progress = run ? <RunProgress key={`${run.kind}-${run.job_id ?? ''}-${String(state.fulfilledTimeStamp)}`} run={run} onFinished={onFinished} /> : null;
  return { button, progress };
}
