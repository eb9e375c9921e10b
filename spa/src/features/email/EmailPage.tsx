import AttachFileIcon from '@mui/icons-material/AttachFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { Link as RouterLink, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { apiDownload } from '@/lib/api/http';
import { isApiError } from '@/lib/api/errors';
import { MSG_DETAILS, MSG_HISTORY, useEmailDetailQuery, useEmailHistoryQuery, type SentEmail } from './emailApi';

const STATUS_COLOR: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  sending: 'info',
  sent: 'success',
  failed: 'error',
  held: 'warning',
};
const CATEGORY_LABEL: Record<string, string> = {
  invoice: 'Invoice',
  invoice_with_delivery_ticket: 'Invoice + delivery ticket',
  delivery_ticket: 'Delivery ticket',
  general: 'Email',
};

const when = (e: SentEmail) => (e.sent_at ? dayjs(e.sent_at).format('MMM D, YYYY HH:mm') : `queued ${dayjs(e.created_at).format('MMM D, HH:mm')}`);

function StatusChip({ status }: { status: string }) {
  return <Chip size="small" label={status} color={STATUS_COLOR[status] ?? 'default'} variant={status === 'sent' ? 'outlined' : 'filled'} />;
}

type Filter = 'all' | 'invoice' | 'invoice_with_delivery_ticket';

function History() {
  const [filter, setFilter] = useState<Filter>('all');
  const history = useEmailHistoryQuery(undefined, { pollingInterval: 10_000 });
  const navigate = useNavigate();
  useEffect(() => {
    if (history.isError) toast.error(isApiError(history.error) ? history.error.message : MSG_HISTORY);
  }, [history.isError, history.error]);
  const rows = (history.data ?? []).filter((e) => filter === 'all' || e.category === filter);
  return (
    <PageBody>
      <PageHeader title="Email" subtitle="Invoice and delivery-ticket emails, newest first. Queued emails are sent by the worker; failures show their reason." />
      <ToggleButtonGroup size="small" exclusive value={filter} onChange={(_, v: Filter | null) => v && setFilter(v)} sx={{ mb: 2, flexWrap: 'wrap' }}>
        <ToggleButton value="all">All</ToggleButton>
        <ToggleButton value="invoice">Invoice</ToggleButton>
        <ToggleButton value="invoice_with_delivery_ticket">Invoice + ticket</ToggleButton>
      </ToggleButtonGroup>
      {history.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {history.isError && <Alert severity="error">{isApiError(history.error) ? history.error.message : MSG_HISTORY}</Alert>}
      {history.data && rows.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">No emails yet. Emails sent from an invoice appear here.</Typography>
        </Paper>
      )}
      {rows.length > 0 && (
        <Paper variant="outlined">
          <List disablePadding aria-label="Sent emails">
            {rows.map((e, i) => (
              <Box key={e.id}>
                {i > 0 && <Divider component="li" />}
                <ListItemButton onClick={() => navigate(`/email/${e.id}`)} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', py: 1.25 }}>
                  <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>{e.subject}</Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="div">
                      To {e.recipient_name ? `${e.recipient_name} <${e.recipient_email}>` : e.recipient_email}
                    </Typography>
                  </Box>
                  <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                    {e.attachments.length > 0 && <AttachFileIcon fontSize="small" color="action" aria-label={`${e.attachments.length} attachments`} />}
                    <Chip size="small" label={CATEGORY_LABEL[e.category] ?? e.category} />
                    <StatusChip status={e.status} />
                    <Typography variant="caption" color="text.secondary" sx={{ minWidth: 120, textAlign: 'right' }}>{when(e)}</Typography>
                  </Stack>
                </ListItemButton>
              </Box>
            ))}
          </List>
        </Paper>
      )}
    </PageBody>
  );
}

function Detail() {
  const { id } = useParams();
  const emailId = Number(id);
  const valid = Number.isInteger(emailId) && emailId > 0;
  const detail = useEmailDetailQuery(emailId, { skip: !valid });
  const download = async (index: number, name: string) => {
    try {
      const blob = await apiDownload(`/email/${emailId}/attachments/${index}`, undefined, '*/*');
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      toast.error(isApiError(err) ? err.message : 'Download failed');
    }
  };
  const e = detail.data;
  const who = (list: { email: string; name: string }[]) => list.map((a) => (a.name ? `${a.name} <${a.email}>` : a.email)).join(', ');
  return (
    <PageBody>
      <Button component={RouterLink} to="/email" size="small" sx={{ mb: 1 }}>← All emails</Button>
      {!valid && <Alert severity="error">{MSG_DETAILS}</Alert>}
      {detail.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {detail.isError && <Alert severity="error">{isApiError(detail.error) ? detail.error.message : MSG_DETAILS}</Alert>}
      {e && (
        <>
          <PageHeader title={e.subject} subtitle={<>{CATEGORY_LABEL[e.category] ?? e.category} · {when(e)}</>} actions={<StatusChip status={e.status} />} />
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '120px 1fr' }, gap: 0.75, m: 0, '& dt': { color: 'text.secondary', fontSize: 13 }, '& dd': { m: 0, mb: { xs: 1, sm: 0 }, wordBreak: 'break-word' } }}>
              <dt>From</dt>
              <dd>{e.sender_name ? `${e.sender_name} <${e.sender_email}>` : e.sender_email}</dd>
              <dt>To</dt>
              <dd>{e.recipient_name ? `${e.recipient_name} <${e.recipient_email}>` : e.recipient_email}</dd>
              {e.cc.length > 0 && (<><dt>Cc</dt><dd>{who(e.cc)}</dd></>)}
              {e.bcc.length > 0 && (<><dt>Bcc</dt><dd>{who(e.bcc)}</dd></>)}
              {e.reply_to && (<><dt>Reply to</dt><dd>{e.reply_to}</dd></>)}
              <dt>Attempts</dt>
              <dd>{e.attempts}</dd>
              <dt>Message-ID</dt>
              <dd><code>{e.message_id}</code></dd>
            </Box>
            {e.status === 'failed' && <Alert severity="error" sx={{ mt: 2 }}>Email sending failed: {e.error}</Alert>}
            {e.status === 'queued' && e.error && <Alert severity="warning" sx={{ mt: 2 }}>Will retry: {e.error}</Alert>}
            {e.status === 'held' && (
              <Alert severity="warning" sx={{ mt: 2 }} action={<Button component={RouterLink} to="/google-authentication" size="small">Reconnect</Button>}>
                Held: {e.error}
              </Alert>
            )}
            <Divider sx={{ my: 2 }} />
            <Typography component="pre" sx={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', m: 0 }}>{e.body || '(no text)'}</Typography>
            {e.attachments.length > 0 && (
              <>
                <Divider sx={{ my: 2 }} />
                <Typography variant="subtitle2" sx={{ mb: 1 }}>Attachments</Typography>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                  {e.attachments.map((a, i) => (
                    <Button key={a.file_key} size="small" variant="outlined" startIcon={<AttachFileIcon />} onClick={() => void download(i, a.file_name)}>
                      {a.file_name} ({Math.max(1, Math.round(a.size / 1024))} KB)
                    </Button>
                  ))}
                </Stack>
              </>
            )}
          </Paper>
        </>
      )}
    </PageBody>
  );
}

export default function EmailPage() {
  return (
    <Routes>
      <Route index element={<History />} />
      <Route path=":id" element={<Detail />} />
      <Route path="*" element={<History />} />
    </Routes>
  );
}
