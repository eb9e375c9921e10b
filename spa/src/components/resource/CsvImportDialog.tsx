import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { isApiError } from '@/lib/api/errors';
import { apiDownload } from '@/lib/api/http';
import { downloadCsv } from './csv';
import { importApi, isRunning, rowErrorsOf, type DataImport, type ImportRowError } from './importApi';
import { toText } from '@/lib/text';

export interface CsvImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** e.g. '/customer/customers/import' */
  importPath: string;
  /** 'customers' */
  plural: string;
  /** 'customer' (for counts of one) */
  singular?: string;
  /** What the file needs (its columns). */
  help?: ReactNode;
  /** After rows were written. */
  onImported?: (result: DataImport) => void;
  /** Milliseconds between progress polls while the worker runs. */
  pollMs?: number;
  /** After this long without progress, say that the worker may be stopped (polling goes on). */
  stallMs?: number;
}

/** Upload → preview with per-row errors → confirm (all rows or none); a progress bar while the worker runs. */
export function CsvImportDialog({ open, onClose, importPath, plural, singular, help, onImported, pollMs = 1000, stallMs = 60_000 }: CsvImportDialogProps) {
  const count = (n: number) => `${n.toLocaleString()} ${n === 1 && singular ? singular : plural}`;
  const client = useMemo(() => importApi(importPath), [importPath]);
  const [imp, setImp] = useState<DataImport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmErrors, setConfirmErrors] = useState<ImportRowError[] | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const notified = useRef<number | null>(null);
  const progressAt = useRef<{ key: string; at: number }>({ key: '', at: 0 });
  const [stalled, setStalled] = useState(false);
  const fullScreen = useMediaQuery('(max-width:600px)');
  const titleId = useId();

  // Each opening starts afresh (state adjusted during render, the React way for a prop change).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setImp(null);
      setBusy(false);
      setError(null);
      setConfirmErrors(null);
      setStalled(false);
    }
  }
  useEffect(() => {
    if (open) notified.current = null;
  }, [open]);

  // Shows an answer of the server. No progress for a long while: the worker may be down. Say so;
  // the import goes on when it is back.
  const show = useCallback((next: DataImport) => {
    setImp(next);
    if (!isRunning(next)) {
      setStalled(false);
      return;
    }
    const key = `${next.import_id}:${next.status}:${next.processed}`;
    const now = Date.now();
    if (progressAt.current.key !== key) {
      progressAt.current = { key, at: now };
      setStalled(false);
    } else setStalled(now - progressAt.current.at >= stallMs);
  }, [stallMs]);

  // While the worker checks or writes the file, poll its progress.
  useEffect(() => {
    if (!open || !imp || !isRunning(imp)) return;
    let live = true;
    const t = setTimeout(() => {
      client
        .status(imp.import_id)
        .then((next) => live && show(next))
        .catch((err: unknown) => live && setError(isApiError(err) ? err.message : 'Failed to read the import progress'));
    }, pollMs);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [open, imp, client, pollMs, show]);

  useEffect(() => {
    if (imp?.status === 'completed' && notified.current !== imp.import_id) {
      notified.current = imp.import_id;
      onImported?.(imp);
    }
  }, [imp, onImported]);

  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setBusy(true);
    setError(null);
    setConfirmErrors(null);
    setImp(null);
    setStalled(false);
    try {
      show(await client.upload(file));
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The file could not be uploaded.');
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!imp) return;
    setBusy(true);
    setError(null);
    setConfirmErrors(null);
    try {
      show(await client.confirm(imp.import_id));
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The import failed. Nothing was written.');
      setConfirmErrors(rowErrorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  const template = async () => {
    try {
      downloadCsv(`${plural}-import-template`, await apiDownload(client.templateUrl, undefined, 'text/csv'));
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The template could not be downloaded.');
    }
  };

  const running = isRunning(imp);
  const done = imp?.status === 'completed';
  const canConfirm = !!imp && (imp.status === 'ready' || imp.status === 'failed') && imp.error_rows === 0 && !busy;
  const rowErrors = confirmErrors ?? (imp && !running ? imp.errors : []);
  const progress = imp && imp.total_rows > 0 ? Math.min(100, Math.round((imp.processed / imp.total_rows) * 100)) : 0;

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Import {plural} from CSV</DialogTitle>
      <DialogContent dividers>
        {!imp && !busy && (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            <Typography>
              Choose a CSV file with a header row. Every row is checked first and you see the result; nothing is written until you confirm, and then
              either every row is imported or none is.
            </Typography>
            {help && (
              <Typography variant="body2" color="text.secondary" component="div">
                {help}
              </Typography>
            )}
          </Box>
        )}
        {busy && !running && <LinearProgress aria-label="Working" sx={{ my: 2 }} />}
        {error && (
          <Alert severity="error" role="alert" sx={{ my: 1.5 }} data-testid="import-error">
            {error}
          </Alert>
        )}
        {imp && running && (
          <Box sx={{ my: 2 }} data-testid="import-progress">
            <Typography variant="body2" sx={{ mb: 1 }}>
              {imp.status === 'validating' ? 'Checking' : 'Importing'} row {imp.processed.toLocaleString()} of {imp.total_rows.toLocaleString()}…
            </Typography>
            <LinearProgress variant="determinate" value={progress} aria-label={`${imp.status === 'validating' ? 'Checking' : 'Importing'} ${progress}%`} />
            {stalled && (
              <Alert severity="warning" sx={{ mt: 1.5 }} data-testid="import-stalled">
                No progress for a while: the background worker may be busy or stopped. You can close this window: the import goes on when the
                worker runs again, and it writes all rows or none.
              </Alert>
            )}
          </Box>
        )}
        {imp && !running && (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="import-preview">
            <Alert severity={done ? 'success' : imp.error_rows > 0 || imp.status === 'failed' ? 'error' : 'info'} role="status">
              {done ? `Imported ${count(imp.created_rows)}.` : imp.message}
            </Alert>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Chip label={`${imp.total_rows} rows in ${imp.file_name || 'the file'}`} />
              <Chip color="success" variant="outlined" label={`${imp.valid_rows} valid`} />
              <Chip color={imp.error_rows ? 'error' : 'default'} variant="outlined" label={`${imp.error_rows} with errors`} />
            </Box>
            {imp.ignored_columns.length > 0 && (
              <Alert severity="warning">Columns not used: {imp.ignored_columns.join(', ')}</Alert>
            )}
            {rowErrors.length > 0 && (
              <>
                <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
                  Rows with errors
                </Typography>
                <TableContainer sx={{ maxHeight: 280, border: 1, borderColor: 'divider', borderRadius: 1 }}>
                  <Table size="small" stickyHeader aria-label="Rows with errors">
                    <TableHead>
                      <TableRow>
                        <TableCell sx={{ width: 70 }}>Row</TableCell>
                        <TableCell sx={{ width: 160 }}>Column</TableCell>
                        <TableCell>Problem</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {rowErrors.map((e, i) => (
                        <TableRow key={`${e.row}-${e.field ?? ''}-${i}`}>
                          <TableCell>{e.row}</TableCell>
                          <TableCell>{e.field ?? '—'}</TableCell>
                          <TableCell>{e.message}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              </>
            )}
            {!done && imp.sample.length > 0 && (
              <>
                <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
                  First rows to import
                </Typography>
                <TableContainer sx={{ maxHeight: 260, border: 1, borderColor: 'divider', borderRadius: 1 }}>
                  <Table size="small" stickyHeader aria-label="First rows to import">
                    <TableHead>
                      <TableRow>
                        <TableCell>Row</TableCell>
                        {imp.columns.map((c) => (
                          <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                            {c}
                          </TableCell>
                        ))}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {imp.sample.map((row, i) => {
                        const r = row as Record<string, unknown>;
                        return (
                          <TableRow key={toText(r.row ?? i)}>
                            <TableCell>{toText(r.row)}</TableCell>
                            {imp.columns.map((c) => (
                              <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                                {toText(r[c])}
                              </TableCell>
                            ))}
                          </TableRow>
                        );
                      })}
                    </TableBody>
                  </Table>
                </TableContainer>
              </>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5, flexWrap: 'wrap', gap: 1 }}>
        <Button startIcon={<Download />} onClick={template} disabled={busy} sx={{ mr: 'auto' }}>
          Template
        </Button>
        <Button onClick={onClose} disabled={busy}>
          {done || running ? 'Close' : 'Cancel'}
        </Button>
        {!running && !done && (
          <Button variant={imp ? 'outlined' : 'contained'} startIcon={<UploadFile />} onClick={() => fileRef.current?.click()} disabled={busy}>
            {imp ? 'Choose another file' : 'Choose CSV file'}
          </Button>
        )}
        {imp && !running && !done && (
          <Button variant="contained" onClick={confirm} disabled={!canConfirm}>
            {busy ? 'Importing…' : `Import ${count(imp.valid_rows)}`}
          </Button>
        )}
        <input ref={fileRef} type="file" accept=".csv,.txt,text/csv,text/plain" hidden onChange={upload} data-testid="csv-file-input" aria-label="CSV file" />
      </DialogActions>
    </Dialog>
  );
}
