import ReplayIcon from '@mui/icons-material/Replay';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import { MSG_JOB_LOGS, MSG_RETRY, useJobKindsQuery, useJobLogsQuery, useRetryJobMutation, type JobLogEntry, type JobLogQuery } from './jobsApi';

export const OUTCOMES = ['queued', 'running', 'retrying', 'succeeded', 'failed'] as const;
const OUTCOME_COLOR: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  running: 'info',
  retrying: 'warning',
  succeeded: 'success',
  failed: 'error',
};

const at = (value: string | null | undefined) => (value ? dayjs(value).format('MMM D, YYYY HH:mm') : '');

function duration(entry: JobLogEntry): string {
  if (!entry.started_at || !entry.finished_at) return '';
  const seconds = Math.max(0, dayjs(entry.finished_at).diff(dayjs(entry.started_at), 'second'));
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

function EntryCard({ entry, onRetry, retrying }: { entry: JobLogEntry; onRetry: (id: number) => void; retrying: boolean }) {
  const took = duration(entry);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="job-log-entry">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mr: 'auto', minWidth: 0, overflowWrap: 'anywhere' }}>
          {entry.message}
        </Typography>
        <Chip size="small" label={entry.status} color={OUTCOME_COLOR[entry.status] ?? 'default'} variant={entry.status === 'succeeded' ? 'outlined' : 'filled'} />
      </Box>
      {entry.document_label && (
        <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          {entry.document_path ? (
            <Link component={RouterLink} to={entry.document_path}>
              {entry.document_label}
            </Link>
          ) : (
            entry.document_label
          )}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {`Started ${at(entry.created)}`}
        {entry.started_by_name ? ` by ${entry.started_by_name}` : ' by the system'}
        {entry.finished_at ? ` · finished ${at(entry.finished_at)}${took ? ` (${took})` : ''}` : ''}
        {entry.attempts > 1 ? ` · ${entry.attempts} attempts` : ''}
        {entry.retry_of_id ? ' · a retry' : ''}
      </Typography>
      {entry.status === 'failed' && entry.error && (
        <Alert severity="error" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {entry.error}
        </Alert>
      )}
      {entry.status === 'retrying' && entry.error && (
        <Alert severity="warning" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {`Will try again: ${entry.error}`}
        </Alert>
      )}
      {entry.can_retry && (
        <Button size="small" variant="contained" startIcon={<ReplayIcon />} sx={{ mt: 1 }} disabled={retrying} onClick={() => onRetry(entry.id)}>
          Retry
        </Button>
      )}
    </Paper>
  );
}

export default function JobLogPage() {
  const [kind, setKind] = useState('');
  const [outcome, setOutcome] = useState('');
  const [dateFrom, setDateFrom] = useState('');
  const [dateTo, setDateTo] = useState('');
  const [page, setPage] = useState(1);
  const params: JobLogQuery = {
    page,
    ...(kind ? { kind } : {}),
    ...(outcome ? { outcome: outcome as JobLogQuery['outcome'] } : {}),
    ...(dateFrom ? { date_from: dateFrom } : {}),
    ...(dateTo ? { date_to: dateTo } : {}),
  };
  const logs = useJobLogsQuery(params, { pollingInterval: 10_000 });
  const kinds = useJobKindsQuery();
  const [retry, retryState] = useRetryJobMutation();

  useEffect(() => {
    if (logs.isError) toast.error(MSG_JOB_LOGS);
  }, [logs.isError]);

  const onRetry = async (id: number) => {
    try {
      await retry(id).unwrap();
      toast.success('The job was queued again.');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : MSG_RETRY);
    }
  };
  const filter = (set: (v: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };
  const data = logs.data;
  const badDates = !!dateFrom && !!dateTo && dateFrom > dateTo;

  return (
    <PageBody>
      <PageHeader
        title="Job log"
        subtitle="What the background did: CSV imports today, then PDFs, emails, repricing and bill parsing. A failed job says why; jobs that are safe to run again can be retried."
        actions={
          <Button component={RouterLink} to="/company-settings" variant="outlined">
            Company settings
          </Button>
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <TextField select size="small" label="Kind" value={kind} onChange={(e) => filter(setKind)(e.target.value)} sx={{ minWidth: 180 }}>
          <MenuItem value="">All kinds</MenuItem>
          {(kinds.data ?? []).map((k) => (
            <MenuItem key={k.kind} value={k.kind}>
              {k.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label="Outcome" value={outcome} onChange={(e) => filter(setOutcome)(e.target.value)} sx={{ minWidth: 160 }}>
          <MenuItem value="">All outcomes</MenuItem>
          {OUTCOMES.map((o) => (
            <MenuItem key={o} value={o}>
              {o}
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" type="date" label="From" value={dateFrom} onChange={(e) => filter(setDateFrom)(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        <TextField
          size="small"
          type="date"
          label="To"
          value={dateTo}
          error={badDates}
          helperText={badDates ? 'The end date is before the start date' : undefined}
          onChange={(e) => filter(setDateTo)(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      {logs.isLoading && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading job logs" />
        </Box>
      )}
      {logs.isError && <Alert severity="error">{MSG_JOB_LOGS}</Alert>}
      {data && data.items.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 3 }}>
          No jobs match these filters.
        </Typography>
      )}
      {data && data.items.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {`${data.total} job${data.total === 1 ? '' : 's'}`}
          </Typography>
          <Stack spacing={1.5}>
            {data.items.map((entry) => (
              <EntryCard key={entry.id} entry={entry} onRetry={onRetry} retrying={retryState.isLoading} />
            ))}
          </Stack>
          {data.pages > 1 && (
            <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
              <Pagination page={page} count={data.pages} onChange={(_, p) => setPage(p)} size="small" />
            </Box>
          )}
        </>
      )}
    </PageBody>
  );
}
