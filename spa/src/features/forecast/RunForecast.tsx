import PlayArrow from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { StatusChip, type StatusStyle } from '@/components/resource';
import { useAppDispatch } from '@/lib/session/hooks';
import { isApiError } from '@/lib/api/errors';
import { forecastApi, useForecastRunQuery, useRunForecastMutation, type ForecastRun } from './forecastApi';

const OUTCOME: Record<string, StatusStyle> = {
  queued: { label: 'Queued', color: 'default' },
  running: { label: 'Running', color: 'info' },
  succeeded: { label: 'Done', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

export function runIsOver(run: Pick<ForecastRun, 'status'>): boolean {
  return run.status === 'succeeded' || run.status === 'failed';
}

/** "312 of 1,200 tanks": the run's progress in words, and in percent (null while the total is unknown). */
export function runProgress(run: Pick<ForecastRun, 'done' | 'total' | 'status'>): { text: string; percent: number | null } {
  if (run.total > 0) {
    const pct = Math.min(100, Math.round((run.done / run.total) * 100));
    return { text: `${run.done.toLocaleString('en-US')} of ${run.total.toLocaleString('en-US')} tanks`, percent: pct };
  }
  return { text: run.status === 'queued' ? 'Waiting for a worker…' : 'Starting…', percent: null };
}

/** A started run followed (GET /forecast/run/{id}) until it ends: a bar with done of total tanks. */
function RunProgress({ started, onFinished }: { started: ForecastRun; onFinished: (run: ForecastRun) => void }) {
  const [over, setOver] = useState(runIsOver(started));
  const q = useForecastRunQuery(started.id, { pollingInterval: over ? 0 : 1000, refetchOnMountOrArgChange: true });
  const run = q.data ?? started;
  const told = useRef(false);
  useEffect(() => {
    if (runIsOver(run) && !told.current) {
      told.current = true;
      setOver(true);
      onFinished(run);
    }
  }, [run, onFinished]);
  const p = runProgress(run);
  const label =
    run.status === 'succeeded'
      ? `Forecast done: ${run.tanks_forecast.toLocaleString('en-US')} tanks forecast, ${run.due.toLocaleString('en-US')} due${run.tanks_failed ? `, ${run.tanks_failed} could not be forecast` : ''}`
      : run.status === 'failed'
        ? 'The forecast run failed'
        : `Forecasting keep-full tanks: ${p.text}`;
  return (
    <Box data-testid="run-progress" data-status={run.status} role="status" sx={{ mb: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: runIsOver(run) ? 0 : 0.75 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, flex: '1 1 auto' }}>
          {label}
        </Typography>
        <StatusChip value={run.status} styles={OUTCOME} />
      </Box>
      {!runIsOver(run) && (
        <LinearProgress variant={p.percent === null ? 'indeterminate' : 'determinate'} value={p.percent ?? undefined} aria-label="Forecast run progress" />
      )}
      {run.status === 'failed' && run.error && (
        <Alert severity="error" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {run.error}
        </Alert>
      )}
    </Box>
  );
}

/** "Run forecast now": queues the run, shows its progress and refreshes the lists when it ends. */
export function useRunForecast() {
  const dispatch = useAppDispatch();
  const [start, state] = useRunForecastMutation();
  const [run, setRun] = useState<ForecastRun | null>(null);
  const [onFinished] = useState(() => (r: ForecastRun) => {
    if (r.status === 'succeeded') toast.success('Forecast updated');
    dispatch(forecastApi.util.invalidateTags([{ type: 'ForecastDue', id: 'LIST' }, 'ForecastTank']));
  });
  const running = state.isLoading;
  const button = (
    <Button
      variant="outlined"
      startIcon={<PlayArrow />}
      disabled={running}
      onClick={async () => {
        try {
          setRun(await start().unwrap());
        } catch (e) {
          toast.error(isApiError(e) ? e.message : 'The forecast could not be started.');
        }
      }}
    >
      Run forecast now
    </Button>
  );
  const progress = run ? <RunProgress key={run.id} started={run} onFinished={onFinished} /> : null;
  return { button, progress };
}
