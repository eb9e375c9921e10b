import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import { apiDownload } from '@/lib/api/http';
import { useCurrentUserPermissionsQuery } from '@/lib/api/lookups';
import { useDataExportsQuery, useStartDataExportMutation, type DataExport } from './dataExportApi';

const EXPORT_PERMISSION = 'company_data.export';
const STATUS_COLOR: Record<string, 'default' | 'info' | 'success' | 'error'> = { queued: 'default', running: 'info', ready: 'success', failed: 'error' };

function megabytes(size: number): string {
  return size >= 1024 * 1024 ? `${(size / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(size / 1024))} KB`;
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function ExportCard({ item }: { item: DataExport }) {
  const [downloading, setDownloading] = useState(false);
  const busy = item.status === 'queued' || item.status === 'running';
  const percent = item.total > 0 ? Math.round((100 * item.done) / item.total) : 0;
  const download = async () => {
    setDownloading(true);
    try {
      const blob = await apiDownload(`/data-export/${item.id}/download`, undefined, 'application/zip');
      saveBlob(blob, `fueldesk-export-${dayjs(item.created_at).format('YYYY-MM-DD')}.zip`);
    } catch (e) {
      toast.error(isApiError(e) ? e.message : 'The download failed.');
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="data-export">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mr: 'auto' }}>
          {`Export of ${dayjs(item.created_at).format('MMM D, YYYY HH:mm')}`}
        </Typography>
        <Chip size="small" label={item.status} color={STATUS_COLOR[item.status] ?? 'default'} />
      </Box>
      {busy && (
        <Box sx={{ mt: 1.5 }}>
          <LinearProgress variant={item.total > 0 ? 'determinate' : 'indeterminate'} value={percent} aria-label="Export progress" />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {item.total > 0 ? `${item.done} of ${item.total} parts · ${item.step}` : 'Waiting for the worker…'}
          </Typography>
        </Box>
      )}
      {item.status === 'ready' && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1, alignItems: { sm: 'center' } }}>
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
            {`${item.total} parts · ${megabytes(item.size)}${item.finished_at ? ` · ready ${dayjs(item.finished_at).format('MMM D, HH:mm')}` : ''}`}
          </Typography>
          <Button variant="contained" startIcon={<DownloadOutlined />} onClick={download} disabled={downloading}>
            Download zip
          </Button>
        </Stack>
      )}
      {item.status === 'failed' && (
        <Alert severity="error" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {item.error || 'The export failed.'}
        </Alert>
      )}
    </Paper>
  );
}

/** "Export all our data" (company admins only): every list as CSV, every document as PDF, every file. */
export default function DataExportPage() {
  const perms = useCurrentUserPermissionsQuery(undefined);
  const allowed = !perms.data || perms.data.grantsAll || perms.data.permissions.includes(EXPORT_PERMISSION);
  const exports = useDataExportsQuery(undefined, { skip: !allowed });
  const [start, starting] = useStartDataExportMutation();
  const items = exports.data ?? [];
  const busy = items.some((e) => e.status === 'queued' || e.status === 'running');
  // A second subscription to the same list polls it while an export is being built (progress).
  useDataExportsQuery(undefined, { skip: !allowed || !busy, pollingInterval: 1500 });

  const begin = async () => {
    try {
      await start().unwrap();
    } catch (e) {
      toast.error(isApiError(e) ? e.message : 'The export could not be started.');
    }
  };

  return (
    <PageBody>
      <PageHeader
        title="Export all our data"
        subtitle="One zip file with every list as CSV, every record, every document as PDF and every file your company uploaded."
        actions={
          allowed ? (
            <Button variant="contained" startIcon={<Inventory2Outlined />} onClick={begin} disabled={busy || starting.isLoading}>
              Build a new export
            </Button>
          ) : undefined
        }
      />
      {!allowed ? (
        <Alert severity="info">Only a company admin can export the company&apos;s data.</Alert>
      ) : (
        <Stack spacing={1.5}>
          {exports.isError && <Alert severity="error">The exports could not be loaded.</Alert>}
          {!exports.isLoading && items.length === 0 && !exports.isError && (
            <Alert severity="info">No export yet. Building one takes a minute or more for a large company; you can leave this page meanwhile.</Alert>
          )}
          {items.map((item) => (
            <ExportCard key={item.id} item={item} />
          ))}
        </Stack>
      )}
    </PageBody>
  );
}
