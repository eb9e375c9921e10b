import CloudUpload from '@mui/icons-material/CloudUpload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useRef, useState, type DragEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { STATUS_LABELS, billparseApi, isBusy, useParsedDocsQuery, useUploadInvoicesMutation, type ParsedDoc } from './billparseApi';

const CHIP_COLOR: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  parsing: 'info',
  parsed: 'success',
  failed: 'error',
  created: 'success',
};

export function StatusChip({ status }: { status: string }) {
  return <Chip size="small" label={STATUS_LABELS[status] ?? status} color={CHIP_COLOR[status] ?? 'default'} variant={status === 'created' ? 'outlined' : 'filled'} />;
}

/** One file of an upload: its progress while the worker reads it, then the outcome. */
export function FileRow({ doc }: { doc: ParsedDoc }) {
  const busy = isBusy(doc.status);
  return (
    <Box sx={{ py: 1.25, borderBottom: 1, borderColor: 'divider' }} data-testid="parse-file" data-status={doc.status}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 160, wordBreak: 'break-all' }}>{doc.file_name}</Typography>
        {doc.supplier_name && (
          <Typography variant="body2" color="text.secondary">
            {doc.supplier_name}
          </Typography>
        )}
        {doc.status === 'parsed' && doc.low_confidence > 0 && (
          <Chip size="small" color="warning" variant="outlined" label={`${doc.low_confidence} to check`} />
        )}
        <StatusChip status={doc.status} />
        {(doc.status === 'parsed' || doc.status === 'created') && (
          <Button size="small" variant="outlined" component={RouterLink} to={`/invoice-parse/${doc.id}`}>
            {doc.status === 'parsed' ? 'Review' : 'Open'}
          </Button>
        )}
      </Box>
      <LinearProgress
        sx={{ mt: 1, height: 4, borderRadius: 2 }}
        variant={busy ? 'indeterminate' : 'determinate'}
        value={100}
        color={doc.status === 'failed' ? 'error' : busy ? 'primary' : 'success'}
        aria-label={`${doc.file_name}: ${STATUS_LABELS[doc.status] ?? doc.status}`}
      />
      {doc.message && (
        <Typography variant="body2" color="error" sx={{ mt: 0.75 }}>
          {doc.message}
        </Typography>
      )}
    </Box>
  );
}

export function UploadPanel() {
  const input = useRef<HTMLInputElement>(null);
  const [batch, setBatch] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [upload, { isLoading }] = useUploadInvoicesMutation();
  const args = { batch: batch ?? undefined, size: 50 };
  // Poll while a file of this upload is still being read (the cached answer says so).
  const cached = billparseApi.endpoints.parsedDocs.useQueryState(args, { skip: !batch });
  const keepPolling = !!batch && (!cached.data || cached.data.items.some((d) => isBusy(d.status)));
  const docs = useParsedDocsQuery(args, { skip: !batch, pollingInterval: keepPolling ? 1200 : 0 });
  const items = docs.data?.items ?? [];
  const busy = items.some((d) => isBusy(d.status));

  async function send(files: File[]) {
    if (!files.length) return;
    try {
      const res = await upload(files).unwrap();
      setBatch(res.batch);
      toast.info(`${files.length} file${files.length === 1 ? '' : 's'} received`);
    } catch (e) {
      toast.error((e as { message?: string }).message ?? 'The upload failed.');
    }
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    void send(Array.from(e.dataTransfer.files));
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
      <Box
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          border: '2px dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'transparent',
          borderRadius: 2,
          p: { xs: 2, sm: 4 },
          textAlign: 'center',
        }}
      >
        <CloudUpload color="primary" sx={{ fontSize: 40 }} />
        <Typography sx={{ fontWeight: 600, mt: 1 }}>Drop supplier invoice PDFs here</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          One or many at a time. Each is read in the background: supplier, bill number, dates, BOLs, terminal, lines and taxes.
        </Typography>
        <Button variant="contained" onClick={() => input.current?.click()} disabled={isLoading}>
          Choose PDFs
        </Button>
        <input
          ref={input}
          type="file"
          accept="application/pdf,.pdf"
          multiple
          hidden
          data-testid="parse-input"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            void send(files);
          }}
        />
      </Box>
      {isLoading && <LinearProgress sx={{ mt: 2 }} aria-label="Uploading" />}
      {batch && (
        <Box sx={{ mt: 2 }} data-testid="parse-batch">
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            This upload
          </Typography>
          {items.map((d) => (
            <FileRow key={d.id} doc={d} />
          ))}
          {!busy && items.length > 0 && items.every((d) => d.status === 'failed') && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              None of these files could be read. Enter the bills by hand from Purchase orders → Bills.
            </Alert>
          )}
        </Box>
      )}
    </Paper>
  );
}
