import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import { apiDownload } from '@/lib/api/http';
import { useProductOptions, useSupplierOptions } from '@/lib/api/lookups';
import {
  CLASSIFICATION_LABEL,
  MSG_DETAILS,
  MSG_LIST,
  MSG_MAILBOX,
  MSG_SAVE,
  MSG_START,
  MSG_READ_AS,
  MSG_VERIFY,
  useInboxListQuery,
  useQuoteRequestChoicesQuery,
  useReadMessageAsMutation,
  useInboxMessageQuery,
  useMailboxQuery,
  useSaveMailboxMutation,
  useStartAgentMutation,
  useStopAgentMutation,
  useTestMailboxMutation,
  useVerifyMessageMutation,
  reviewFromParse,
  reviewTotals,
  type BillReview,
  type BillReviewLine,
  type InboxMessage,
  type Mailbox,
  type ParsedBillResult,
  type MailboxBody,
  type MailboxTest,
  type ProposedLine,
} from './inboxApi';

const recordText = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
const errorText = (e: unknown, fallback: string) => (isApiError(e) ? e.message : fallback);
const when = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY HH:mm') : '—');
const CLASS_COLOR: Record<string, 'warning' | 'info' | 'default'> = { bill: 'warning', price_quote_reply: 'info', other: 'default' };

function ClassChip({ value }: { value: string }) {
  return <Chip size="small" color={CLASS_COLOR[value] ?? 'default'} label={CLASSIFICATION_LABEL[value] ?? value} />;
}

// ------------------------------------------------------------------------------------ mailbox settings

function SettingsDialog({ mailbox, onClose }: { mailbox: Mailbox; onClose: () => void }) {
  const [form, setForm] = useState<MailboxBody>({
    host: mailbox.host,
    port: mailbox.port,
    security: mailbox.security as MailboxBody['security'],
    username: mailbox.username,
    password: '',
    folder: mailbox.folder,
    poll_every_seconds: mailbox.poll_every_seconds,
  });
  const [tested, setTested] = useState<MailboxTest | null>(null);
  const [save, saving] = useSaveMailboxMutation();
  const [test, testing] = useTestMailboxMutation();
  const set = (patch: Partial<MailboxBody>) => {
    setForm((f) => ({ ...f, ...patch }));
    setTested(null);
  };
  const onTest = async () => {
    try {
      setTested((await test({ settings: form }).unwrap()).data);
    } catch (err) {
      setTested({ ok: false, message: errorText(err, MSG_SAVE), messages: null });
    }
  };
  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    try {
      toast.success((await save(form).unwrap()).message);
      onClose();
    } catch (err) {
      toast.error(errorText(err, MSG_SAVE));
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" component="form" onSubmit={onSave} aria-labelledby="mailbox-title">
      <DialogTitle id="mailbox-title">Mailbox settings</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label="IMAP server" value={form.host} onChange={(e) => set({ host: e.target.value })} required fullWidth />
            <TextField label="Port" type="number" value={form.port} onChange={(e) => set({ port: Number(e.target.value) })} sx={{ minWidth: 110 }} />
          </Stack>
          <TextField select label="Security" value={form.security} onChange={(e) => set({ security: e.target.value as MailboxBody['security'], port: e.target.value === 'ssl' ? 993 : 143 })}>
            <MenuItem value="ssl">TLS (IMAPS)</MenuItem>
            <MenuItem value="starttls">STARTTLS</MenuItem>
            <MenuItem value="none">None (trusted network only)</MenuItem>
          </TextField>
          <TextField label="User name" value={form.username} onChange={(e) => set({ username: e.target.value })} required autoComplete="off" />
          <TextField
            label="Password"
            type="password"
            value={form.password ?? ''}
            onChange={(e) => set({ password: e.target.value })}
            autoComplete="new-password"
            helperText={mailbox.has_password ? 'A password is stored (encrypted). Leave blank to keep it.' : 'Stored encrypted; never shown again.'}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label="Folder" value={form.folder} onChange={(e) => set({ folder: e.target.value })} fullWidth />
            <TextField label="Check every (minutes)" type="number" value={Math.round((form.poll_every_seconds ?? 120) / 60)} onChange={(e) => set({ poll_every_seconds: Math.max(1, Number(e.target.value)) * 60 })} fullWidth slotProps={{ htmlInput: { min: 1 } }} />
          </Stack>
          {tested && <Alert severity={tested.ok ? 'success' : 'error'} data-testid="mailbox-test-result">{tested.message}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onTest} disabled={testing.isLoading || !form.host || !form.username}>
          {testing.isLoading ? 'Testing…' : 'Test connection'}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={saving.isLoading}>Save</Button>
      </DialogActions>
    </Dialog>
  );
}

function MailboxCard() {
  const mailbox = useMailboxQuery(undefined, { pollingInterval: 15_000 });
  const [start, starting] = useStartAgentMutation();
  const [stop, stopping] = useStopAgentMutation();
  const [editing, setEditing] = useState(false);
  const m = mailbox.data;
  const run = async (action: typeof start) => {
    try {
      toast.success((await action().unwrap()).message);
    } catch (err) {
      toast.error(errorText(err, MSG_START));
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      {mailbox.isError && <Alert severity="error">{errorText(mailbox.error, MSG_MAILBOX)}</Alert>}
      {m && (
        <Stack spacing={1.5}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
              <Typography variant="subtitle2">Mailbox</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {m.configured ? `${m.username} on ${m.host}:${m.port} (${m.folder})` : 'Not set up yet: enter the IMAP server the suppliers write to.'}
              </Typography>
            </Box>
            {m.configured && <Chip size="small" label={m.enabled ? 'Checking' : 'Stopped'} color={m.enabled ? 'success' : 'default'} />}
            <Button size="small" onClick={() => setEditing(true)}>{m.configured ? 'Settings' : 'Set up mailbox'}</Button>
            {m.configured && (
              <Button size="small" variant="contained" disabled={starting.isLoading} onClick={() => run(start)}>
                {m.enabled ? 'Check now' : 'Start'}
              </Button>
            )}
            {m.enabled && <Button size="small" disabled={stopping.isLoading} onClick={() => run(stop)}>Stop</Button>}
          </Box>
          {m.configured && (
            <Typography variant="caption" color="text.secondary">
              Last checked {when(m.last_polled_at)} · last success {when(m.last_success_at)}
              {m.enabled && m.next_poll_at ? ` · next check ${when(m.next_poll_at)}` : ''}
            </Typography>
          )}
          {m.last_error && (
            <Alert severity="error" data-testid="mailbox-error">
              {m.last_error}
              {m.consecutive_failures > 1 ? ` (${m.consecutive_failures} times in a row; the next try waits longer each time)` : ''}
            </Alert>
          )}
        </Stack>
      )}
      {editing && m && <SettingsDialog mailbox={m} onClose={() => setEditing(false)} />}
    </Paper>
  );
}

// ------------------------------------------------------------------------------------ the list

type Show = 'queue' | 'all';

function InboxList() {
  const [show, setShow] = useState<Show>('queue');
  const list = useInboxListQuery({ sort_by: 'received_timestamp', order: 'desc', include_verified: show === 'all', page: 1, size: 50 }, { pollingInterval: 20_000 });
  const navigate = useNavigate();
  useEffect(() => {
    if (list.isError) toast.error(errorText(list.error, MSG_LIST));
  }, [list.isError, list.error]);
  return (
    <PageBody>
      <PageHeader
        title="Inbox"
        subtitle="Emails received by the inbox agent, each classified with its reason. Verify one to create the bill or the quote it stands for."
        actions={<Button component={RouterLink} to="/email" size="small">Sent emails</Button>}
      />
      <MailboxCard />
      <ToggleButtonGroup size="small" exclusive value={show} onChange={(_, v: Show | null) => v && setShow(v)} sx={{ mb: 2 }}>
        <ToggleButton value="queue">To verify</ToggleButton>
        <ToggleButton value="all">All</ToggleButton>
      </ToggleButtonGroup>
      {list.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {list.isError && <Alert severity="error">{errorText(list.error, MSG_LIST)}</Alert>}
      {list.data && list.data.items.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">{show === 'queue' ? 'Nothing to verify.' : 'No email received yet.'}</Typography>
        </Paper>
      )}
      {list.data && list.data.items.length > 0 && (
        <Paper variant="outlined">
          <List disablePadding aria-label="Received emails">
            {list.data.items.map((m, i) => (
              <Box key={m.id}>
                {i > 0 && <Divider component="li" />}
                <ListItemButton onClick={() => navigate(`/email/inbox/${m.id}`)} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', py: 1.25 }}>
                  <Box sx={{ flex: '1 1 300px', minWidth: 0 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>{m.subject || '(no subject)'}</Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="div">
                      From {m.sender_name ? `${m.sender_name} <${m.sender_email}>` : m.sender_email} · {when(m.received_timestamp)}
                      {m.attachment_count ? ` · ${m.attachment_count} attachment${m.attachment_count > 1 ? 's' : ''}` : ''}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5, whiteSpace: 'normal' }}>
                      {m.classification_reason}
                    </Typography>
                  </Box>
                  <Stack direction="row" spacing={1}>
                    <ClassChip value={m.classification} />
                    {m.read_problems.length > 0 && <Chip size="small" variant="outlined" color="warning" label="Unreadable part" title={m.read_problems.join(' ')} />}
                    {m.verified && <Chip size="small" variant="outlined" color="success" label="Verified" />}
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

// ------------------------------------------------------------------------------------ one email + verify

function QuoteVerify({ message }: { message: InboxMessage }) {
  const proposal = message.quote_proposal;
  const [lines, setLines] = useState<ProposedLine[]>(proposal?.lines ?? []);
  const [verify, state] = useVerifyMessageMutation();
  if (!proposal) return <Alert severity="warning">{message.proposal_error || 'No quote request matched: verify it as other.'}</Alert>;
  const submit = async () => {
    try {
      const res = await verify({
        id: message.id,
        body: {
          verified_as: 'price_quote_reply',
          quote: {
            quote_request_id: proposal.quote_request_id,
            supplier_id: proposal.supplier_id,
            lines: lines.map((l) => ({ product_id: l.product_id, terminal_id: l.terminal_id, price: l.price })),
          },
        },
      }).unwrap();
      toast.success(res.message);
    } catch (err) {
      toast.error(errorText(err, MSG_VERIFY));
    }
  };
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2">
        Quote of <b>{proposal.supplier_name}</b> for request{' '}
        <RouterLink to={`/price-quotes/${proposal.quote_request_id}`}>{proposal.quote_request_number}</RouterLink>, read from {proposal.sources.join(' and ')}. Check the prices, then create the quote.
      </Typography>
      {lines.length === 0 ? (
        <Alert severity="warning">No price was found in the reply.</Alert>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Proposed prices">
            <TableHead>
              <TableRow>
                <TableCell>Terminal</TableCell>
                <TableCell>Product</TableCell>
                <TableCell align="right">Price / gal</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((l, i) => (
                <TableRow key={`${l.terminal_id}-${l.product_id}`}>
                  <TableCell>{l.terminal_name}</TableCell>
                  <TableCell>{l.product_name}</TableCell>
                  <TableCell align="right">
                    <TextField
                      size="small"
                      value={l.price}
                      onChange={(e) => setLines((all) => all.map((x, j) => (j === i ? { ...x, price: e.target.value } : x)))}
                      slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': `Price ${l.terminal_name} ${l.product_name}`, style: { textAlign: 'right' } } }}
                      sx={{ width: 120 }}
                    />
                  </TableCell>
                  <TableCell>
                    <Button size="small" color="inherit" onClick={() => setLines((all) => all.filter((_, j) => j !== i))}>Remove</Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {proposal.unmatched.length > 0 && (
        <Alert severity="info">
          Lines with a price that name no product or terminal of the request: {proposal.unmatched.join(' · ')}
        </Alert>
      )}
      <Box>
        <Button variant="contained" disabled={state.isLoading || lines.length === 0} onClick={submit}>Create quote</Button>
      </Box>
    </Stack>
  );
}

function BillVerify({ message }: { message: InboxMessage }) {
  const proposal = message.bill_proposal as { result?: ParsedBillResult; draft?: { supplier_id?: number | null } } | null;
  const result = proposal?.result;
  const [review, setReview] = useState<BillReview>(() => reviewFromParse(result, proposal?.draft?.supplier_id ?? message.supplier_id ?? null));
  const suppliers = useSupplierOptions();
  const products = useProductOptions();
  const [verify, state] = useVerifyMessageMutation();
  const confidence = (name: string) => result?.fields?.[name]?.confidence ?? 1;
  const low = (name: string) => (confidence(name) < 0.8 ? 'Low confidence: check it' : undefined);
  const setLine = (i: number, patch: Partial<BillReviewLine>) =>
    setReview((r) => ({ ...r, lines: (r.lines ?? []).map((l, j) => (j === i ? { ...l, ...patch } : l)) }));
  if (!proposal) return <Alert severity="warning">{message.proposal_error || 'The invoice could not be read: dismiss it and enter the bill by hand.'}</Alert>;
  const totals = reviewTotals(review);
  const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  const reason = (review.total_override_reason ?? '').trim();
  const submit = async () => {
    try {
      const bill = { ...review, total_override_reason: totals.agree ? '' : reason };
      toast.success((await verify({ id: message.id, body: { verified_as: 'bill', bill } }).unwrap()).message);
    } catch (err) {
      toast.error(errorText(err, MSG_VERIFY));
    }
  };
  return (
    <Stack spacing={2}>
      <Typography variant="body2">Read by the bill parser from the attached PDF. Fields marked in orange have a low confidence: check them against the PDF.</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField select label="Supplier" value={review.supplier_id ?? ''} onChange={(e) => setReview({ ...review, supplier_id: Number(e.target.value) || null })} fullWidth helperText={low('supplier')} color={low('supplier') ? 'warning' : undefined} focused={!!low('supplier') || undefined}>
          {suppliers.options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
        </TextField>
        <TextField label="Bill number" value={review.bill_number} onChange={(e) => setReview({ ...review, bill_number: e.target.value })} fullWidth helperText={low('bill_number')} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField label="Bill date" type="date" value={review.bill_date ?? ''} onChange={(e) => setReview({ ...review, bill_date: e.target.value || null })} slotProps={{ inputLabel: { shrink: true } }} fullWidth helperText={low('bill_date')} />
        <TextField label="Due date" type="date" value={review.due_date ?? ''} onChange={(e) => setReview({ ...review, due_date: e.target.value || null })} slotProps={{ inputLabel: { shrink: true } }} fullWidth helperText={low('due_date') ?? 'Empty: from the payment term'} />
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Bill lines" sx={{ minWidth: 560 }}>
          <TableHead>
            <TableRow>
              <TableCell>Product</TableCell>
              <TableCell align="right">Net gal</TableCell>
              <TableCell align="right">Unit price</TableCell>
              <TableCell align="right">Amount</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(review.lines ?? []).map((l, i) => (
              <TableRow key={i}>
                <TableCell>
                  <TextField select size="small" value={l.product_id ?? ''} onChange={(e) => setLine(i, { product_id: Number(e.target.value) || null })} sx={{ minWidth: 180 }} helperText={l.description || undefined}>
                    {products.options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
                  </TextField>
                </TableCell>
                <TableCell align="right">
                  <TextField size="small" value={l.net ?? ''} onChange={(e) => setLine(i, { net: e.target.value || null })} sx={{ width: 110 }} />
                </TableCell>
                <TableCell align="right">
                  <TextField size="small" value={l.unit_price ?? ''} onChange={(e) => setLine(i, { unit_price: e.target.value || null })} sx={{ width: 110 }} />
                </TableCell>
                <TableCell align="right">{l.amount ?? '—'}</TableCell>
              </TableRow>
            ))}
            {(review.taxes ?? []).map((t, i) => (
              <TableRow key={`t${i}`}>
                <TableCell colSpan={3}>{t.name}</TableCell>
                <TableCell align="right">{String(t.amount)}</TableCell>
              </TableRow>
            ))}
            {review.total != null && (
              <TableRow>
                <TableCell colSpan={3} sx={{ fontWeight: 600 }}>Total on the invoice</TableCell>
                <TableCell align="right" sx={{ fontWeight: 600 }}>{String(review.total)}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Box>
      {!totals.agree && totals.total != null && (
        <Alert severity="warning" data-testid="totals-disagree">
          <Typography variant="body2" sx={{ mb: 1.5 }}>
            The lines and taxes come to <b>{usd(totals.sum)}</b> but the invoice&apos;s total is <b>{usd(totals.total)}</b> (a difference of {usd(totals.total - totals.sum)}). Open
            the PDF in the bill parser to correct them, or create the bill anyway and say why: the reason is kept on the bill.
          </Typography>
          <TextField
            size="small"
            fullWidth
            multiline
            minRows={2}
            label="Reason for the difference"
            value={review.total_override_reason ?? ''}
            onChange={(e) => setReview({ ...review, total_override_reason: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'override-reason' } }}
            sx={{ bgcolor: 'background.paper' }}
          />
        </Alert>
      )}
      <Box>
        <Button
          variant="contained"
          color={totals.agree ? 'primary' : 'warning'}
          disabled={state.isLoading || !review.supplier_id || !review.bill_number || (!totals.agree && !reason)}
          onClick={submit}
        >
          {totals.agree ? 'Create bill' : 'Create bill anyway'}
        </Button>
      </Box>
    </Stack>
  );
}

/** Read an email as another kind than it was classified (e.g. "other"), so it can be verified as that. */
function ReadAs({ message }: { message: InboxMessage }) {
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

function Detail() {
  const { id } = useParams();
  const messageId = Number(id);
  const valid = Number.isInteger(messageId) && messageId > 0;
  const detail = useInboxMessageQuery(messageId, { skip: !valid });
  const [verify, state] = useVerifyMessageMutation();
  const navigate = useNavigate();
  const m = detail.data;
  const download = async (index: number, name: string) => {
    try {
      const blob = await apiDownload(`/email-agent/${messageId}/attachments/${index}`, undefined, '*/*');
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      toast.error(errorText(err, 'Download failed'));
    }
  };
  const dismiss = async () => {
    try {
      toast.success((await verify({ id: messageId, body: { verified_as: 'other' } }).unwrap()).message);
      navigate('/email/inbox');
    } catch (err) {
      toast.error(errorText(err, MSG_VERIFY));
    }
  };
  return (
    <PageBody>
      <Button component={RouterLink} to="/email/inbox" size="small" sx={{ mb: 1 }}>← Inbox</Button>
      {!valid && <Alert severity="error">{MSG_DETAILS}</Alert>}
      {detail.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {detail.isError && <Alert severity="error">{errorText(detail.error, MSG_DETAILS)}</Alert>}
      {m && (
        <>
          <PageHeader title={m.subject || '(no subject)'} subtitle={`From ${m.sender_name ? `${m.sender_name} <${m.sender_email}>` : m.sender_email} · ${when(m.received_timestamp)}`} actions={<ClassChip value={m.classification} />} />
          <Alert severity="info" sx={{ mb: 2 }} data-testid="classification-reason">
            Classified as <b>{CLASSIFICATION_LABEL[m.classification] ?? m.classification}</b>: {m.classification_reason}
          </Alert>
          {m.read_problems.length > 0 && (
            <Alert severity="warning" sx={{ mb: 2 }} data-testid="read-problems">
              <b>Could not be read in full.</b> {m.read_problems.join(' ')}
            </Alert>
          )}
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>{m.verified ? 'Verified' : 'Verify'}</Typography>
            {m.verified ? (
              <Typography variant="body2">
                Verified as {CLASSIFICATION_LABEL[m.verified_as] ?? m.verified_as} by {m.verified_by_name || 'a user'} on {when(m.verified_at)}.
                {m.created_record && (
                  <> Created: <RouterLink to={recordText(m.created_record.path)}>{recordText(m.created_record.label)}</RouterLink></>
                )}
              </Typography>
            ) : (
              <Stack spacing={2}>
                {(m.quote_proposal || (m.classification === 'price_quote_reply' && !m.bill_proposal)) && (
                  <QuoteVerify key={`q-${m.quote_proposal?.quote_request_id ?? 0}-${m.quote_proposal?.supplier_id ?? 0}`} message={m} />
                )}
                {(m.bill_proposal || (m.classification === 'bill' && !m.quote_proposal)) && (
                  <BillVerify key={`b-${(m.bill_proposal as { parse_id?: number } | null)?.parse_id ?? 0}`} message={m} />
                )}
                {!m.quote_proposal && !m.bill_proposal && <ReadAs message={m} />}
                <Box>
                  <Button color="inherit" disabled={state.isLoading} onClick={dismiss}>Dismiss (other)</Button>
                </Box>
              </Stack>
            )}
          </Paper>
          {m.attachments.length > 0 && (
            <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
              {m.attachments.map((a, i) => (
                <Chip
                  key={`${a.file_name}-${i}`}
                  label={a.problem ? `${a.file_name} (could not be read)` : `${a.file_name} (${Math.ceil(a.size / 1024)} KB)`}
                  title={a.problem || undefined}
                  color={a.problem ? 'warning' : 'default'}
                  onClick={a.problem && a.size === 0 ? undefined : () => download(i, a.file_name)}
                  variant="outlined"
                />
              ))}
            </Stack>
          )}
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="body2" component="pre" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit', m: 0 }}>
              {m.body || '(no text)'}
            </Typography>
          </Paper>
        </>
      )}
    </PageBody>
  );
}

export default function InboxPage() {
  return (
    <Routes>
      <Route index element={<InboxList />} />
      <Route path=":id" element={<Detail />} />
    </Routes>
  );
}
