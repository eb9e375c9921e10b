import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { useSupplierOptions } from '@/lib/api/lookups';
import { MSG_READ_AS, useQuoteRequestChoicesQuery, useReadMessageAsMutation, type InboxMessage } from './inboxApi';
import { errorText } from './format';

/** Read an email as another kind than it was classified (e.g. "other"), so it can be verified as that. */
export function ReadAs({ message }: { message: InboxMessage }) {
  const [readAs, state] = useReadMessageAsMutation();
  const requests = useQuoteRequestChoicesQuery();
  const suppliers = useSupplierOptions();
  const [requestId, setRequestId] = useState<number | ''>(message.quote_request_id ?? '');
  const [supplierId, setSupplierId] = useState<number | ''>(message.supplier_id ?? '');
  const hasPdf = message.attachments.some((a) => a.content_type === 'application/pdf' && !a.problem);
  const run = async (body: Parameters<typeof readAs>[0]['body']) => {
    try {
      toast.success((await readAs({ id: message.id, body }).unwrap()).message);
    } catch (err) {
      toast.error(errorText(err, MSG_READ_AS));
    }
  };
  const open = (requests.data ?? []).filter((r) => r.status === 'open');
  return (
    <Stack spacing={1.5} data-testid="read-as">
      <Typography variant="body2" color="text.secondary">
        Not what it was classified as? Read it as a bill or as a quote reply, check what was read, then verify it.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <Button variant="outlined" disabled={!hasPdf || state.isLoading} onClick={() => run({ kind: 'bill' })}>
          Read as a bill
        </Button>
        {!hasPdf && <Typography variant="caption" color="text.secondary">No PDF attachment that can be read.</Typography>}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <TextField select size="small" label="Quote request" value={requestId} onChange={(e) => setRequestId(Number(e.target.value) || '')} sx={{ width: { xs: '100%', sm: 240 } }}>
          {open.map((r) => <MenuItem key={r.id} value={r.id}>{`${r.number} · ${dayjs(r.quote_date).format('MMM D')}`}</MenuItem>)}
        </TextField>
        <TextField select size="small" label="Supplier" value={supplierId} onChange={(e) => setSupplierId(Number(e.target.value) || '')} sx={{ width: { xs: '100%', sm: 280 } }}>
          {suppliers.options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
        </TextField>
        <Button
          variant="outlined"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          disabled={!requestId || state.isLoading}
          onClick={() => run({ kind: 'price_quote_reply', quote_request_id: Number(requestId), supplier_id: supplierId ? Number(supplierId) : null })}
        >
          Read as a quote reply
        </Button>
      </Stack>
    </Stack>
  );
}
