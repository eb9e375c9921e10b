import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useState, type FormEvent } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import { useProductOptions, useSupplierLookupQuery, useTerminalOptions, type LookupOption } from '@/lib/api/lookups';
import {
  MSG_ACCEPT,
  MSG_RECORD,
  MSG_REQUEST,
  MSG_REQUESTS,
  MSG_SEND,
  formatGap,
  useAcceptQuoteLineMutation,
  useCreateQuoteRequestMutation,
  useQuoteComparisonQuery,
  useQuoteRequestQuery,
  useQuoteRequestsQuery,
  useRecordQuoteMutation,
  useReplyDestinationQuery,
  type QuoteComparison,
  type QuoteRequest,
} from './quotesApi';

const errorText = (e: unknown, fallback: string) => (isApiError(e) ? e.message : fallback);
const tomorrow = () => dayjs().add(1, 'day').format('YYYY-MM-DD');

function MultiPick({ label, options, value, onChange, loading, testId }: {
  label: string; options: LookupOption[]; value: number[]; onChange: (v: number[]) => void; loading?: boolean; testId: string;
}) {
  return (
    <Autocomplete<LookupOption, true>
      multiple
      options={options}
      loading={loading}
      value={options.filter((o) => value.includes(o.value))}
      onChange={(_, next) => onChange(next.map((o) => o.value))}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      renderInput={(params) => <TextField {...params} label={label} data-testid={testId} />}
    />
  );
}

function ComposeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const products = useProductOptions();
  const terminals = useTerminalOptions();
  const suppliers = useSupplierLookupQuery();
  const supplierOptions: LookupOption[] = (suppliers.data ?? [])
    .filter((s) => s.status !== 'inactive')
    .map((s) => ({ value: s.id, label: s.email ? `${s.name} <${s.email}>` : `${s.name} (no email)` }));
  const [productIds, setProductIds] = useState<number[]>([]);
  const [terminalIds, setTerminalIds] = useState<number[]>([]);
  const [supplierIds, setSupplierIds] = useState<number[]>([]);
  const [quantity, setQuantity] = useState('8000');
  const [date, setDate] = useState(tomorrow());
  const [notes, setNotes] = useState('');
  const [create, state] = useCreateQuoteRequestMutation();
  const navigate = useNavigate();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await create({ quote_date: date, quantity, product_ids: productIds, terminal_ids: terminalIds, supplier_ids: supplierIds, notes }).unwrap();
      toast.success(res.message);
      onClose();
      navigate(`/price-quotes/${res.data.id}`);
    } catch (err) {
      toast.error(errorText(err, MSG_SEND));
    }
  };
  const ready = productIds.length > 0 && terminalIds.length > 0 && supplierIds.length > 0 && !!date && quantity !== '';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" component="form" onSubmit={submit} aria-labelledby="compose-title">
      <DialogTitle id="compose-title">New quote request</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <MultiPick label="Products" options={products.options} loading={products.loading} value={productIds} onChange={setProductIds} testId="quote-products" />
          <MultiPick label="Terminals" options={terminals.options} loading={terminals.loading} value={terminalIds} onChange={setTerminalIds} testId="quote-terminals" />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label="Quantity (gallons)" type="number" value={quantity} onChange={(e) => setQuantity(e.target.value)} slotProps={{ htmlInput: { min: 0, step: 'any' } }} fullWidth />
            <TextField label="Prices for" type="date" value={date} onChange={(e) => setDate(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} fullWidth />
          </Stack>
          <MultiPick label="Suppliers to ask" options={supplierOptions} loading={suppliers.isLoading} value={supplierIds} onChange={setSupplierIds} testId="quote-suppliers" />
          <TextField label="Note to suppliers (optional)" value={notes} onChange={(e) => setNotes(e.target.value)} multiline minRows={2} />
          <ReplyNote />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={!ready || state.isLoading}>
          {state.isLoading ? 'Sending…' : 'Send request'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Where suppliers' replies will go (the emails' Reply-To), with a warning when the inbox will not read them. */
function ReplyNote() {
  const dest = useReplyDestinationQuery();
  if (!dest.data) return null;
  return (
    <Alert severity={dest.data.read_by_inbox ? 'info' : 'warning'} data-testid="reply-destination">
      {dest.data.note}
    </Alert>
  );
}

type Price = { key: string; product_id: number; terminal_id: number; label: string; price: string };

/** A quote given another way (a phone call): the supplier asked, a price per product and terminal asked about. */
function PhoneQuoteForm({ request }: { request: QuoteRequest }) {
  const [record, state] = useRecordQuoteMutation();
  const [supplierId, setSupplierId] = useState<number | ''>(request.recipients.length === 1 ? request.recipients[0].supplier.id : '');
  const blank = (): Price[] =>
    request.terminals.flatMap((t) =>
      request.products.map((p) => ({ key: `${t.id}-${p.id}`, product_id: p.id, terminal_id: t.id, label: `${p.name} · ${t.name}`, price: '' })),
    );
  const [prices, setPrices] = useState<Price[]>(blank);
  const [notes, setNotes] = useState('');
  const given = prices.filter((p) => p.price.trim() !== '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await record({
        id: request.id,
        body: { supplier_id: Number(supplierId), lines: given.map((p) => ({ product_id: p.product_id, terminal_id: p.terminal_id, price: p.price.trim() })), notes },
      }).unwrap();
      toast.success(res.message);
      setPrices(blank());
      setNotes('');
    } catch (err) {
      toast.error(errorText(err, MSG_RECORD));
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} component="form" onSubmit={submit} aria-labelledby="phone-quote-title">
      <Typography id="phone-quote-title" variant="subtitle2" sx={{ mb: 1 }}>Record a quote given by phone</Typography>
      <Stack spacing={1.5}>
        <TextField select size="small" label="Supplier" value={supplierId} onChange={(e) => setSupplierId(Number(e.target.value) || '')} sx={{ maxWidth: 360 }} data-testid="phone-supplier">
          {request.recipients.map((rc) => <MenuItem key={rc.supplier.id} value={rc.supplier.id}>{rc.supplier.name}</MenuItem>)}
        </TextField>
        <Stack spacing={1} sx={{ maxWidth: 640 }}>
          {prices.map((p, i) => (
            <Box key={p.key} sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
              <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{p.label}</Typography>
              <TextField
                size="small"
                placeholder="Price / gal"
                value={p.price}
                onChange={(e) => setPrices((all) => all.map((x, j) => (j === i ? { ...x, price: e.target.value } : x)))}
                slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': p.label, style: { textAlign: 'right' } } }}
                sx={{ width: 130, flexShrink: 0 }}
              />
            </Box>
          ))}
        </Stack>
        <TextField size="small" label="Note (optional)" value={notes} onChange={(e) => setNotes(e.target.value)} placeholder="Who called, how long the price holds" sx={{ maxWidth: 640 }} />
        <Box>
          <Button type="submit" variant="contained" disabled={!supplierId || given.length === 0 || state.isLoading}>
            {state.isLoading ? 'Recording…' : 'Record quote'}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

function RequestList() {
  const [open, setOpen] = useState(false);
  const list = useQuoteRequestsQuery({ page: 1, size: 50 });
  const navigate = useNavigate();
  return (
    <PageBody>
      <PageHeader
        title="Price Quotes"
        subtitle="Ask suppliers for prices by email, compare their answers against today's rack, accept the best into buying prices."
        actions={<Button variant="contained" onClick={() => setOpen(true)}>New quote request</Button>}
      />
      {list.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {list.isError && <Alert severity="error">{errorText(list.error, MSG_REQUESTS)}</Alert>}
      {list.data && list.data.items.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">No quote requests yet. Start one to ask your suppliers for prices.</Typography>
        </Paper>
      )}
      {list.data && list.data.items.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Quote requests">
            <TableHead>
              <TableRow>
                <TableCell>Request</TableCell>
                <TableCell>Prices for</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Sent</TableCell>
                <TableCell align="right">Suppliers</TableCell>
                <TableCell align="right">Quotes</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.items.map((r) => (
                <TableRow key={r.id} hover sx={{ cursor: 'pointer' }} onClick={() => navigate(`/price-quotes/${r.id}`)}>
                  <TableCell sx={{ fontWeight: 600 }}>{r.number}</TableCell>
                  <TableCell>{dayjs(r.quote_date).format('MMM D, YYYY')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{dayjs(r.created_at).format('MMM D, HH:mm')}</TableCell>
                  <TableCell align="right">{r.recipient_count}</TableCell>
                  <TableCell align="right">{r.quote_count}</TableCell>
                  <TableCell><Chip size="small" label={r.status} color={r.status === 'open' ? 'info' : 'default'} /></TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {open && <ComposeDialog open={open} onClose={() => setOpen(false)} />}
    </PageBody>
  );
}

function Grid({ grid, requestId, closed }: { grid: QuoteComparison; requestId: number; closed: boolean }) {
  const [accept, state] = useAcceptQuoteLineMutation();
  const onAccept = async (lineId: number) => {
    try {
      const res = await accept({ lineId, requestId }).unwrap();
      toast.success(res.message);
    } catch (err) {
      toast.error(errorText(err, MSG_ACCEPT));
    }
  };
  if (grid.suppliers.length === 0) return <Alert severity="info">No supplier was asked.</Alert>;
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Quote comparison" sx={{ minWidth: 520 }}>
        <TableHead>
          <TableRow>
            <TableCell>Terminal · product</TableCell>
            <TableCell align="right">Rack today</TableCell>
            {grid.suppliers.map((s) => <TableCell key={s.id} align="right">{s.name}</TableCell>)}
          </TableRow>
        </TableHead>
        <TableBody>
          {grid.rows.map((row) => (
            <TableRow key={`${row.terminal.id}-${row.product.id}`}>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>{row.terminal.name}</Typography>
                <Typography variant="caption" color="text.secondary">{row.product.name}</Typography>
              </TableCell>
              <TableCell align="right">{row.rack_price ?? '—'}</TableCell>
              {row.cells.map((c) => (
                <TableCell
                  key={c.supplier_id}
                  align="right"
                  data-testid={`cell-${row.terminal.id}-${row.product.id}-${c.supplier_id}`}
                  sx={c.is_lowest ? { backgroundColor: 'rgba(46, 125, 50, 0.08)' } : undefined}
                >
                  {c.price == null ? (
                    <Typography variant="body2" color="text.disabled">no quote</Typography>
                  ) : (
                    <Stack spacing={0.5} sx={{ alignItems: 'flex-end' }}>
                      <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'center' }}>
                        {c.is_lowest && <Chip size="small" color="success" label="Lowest" />}
                        <Typography variant="body2" sx={{ fontWeight: c.is_lowest ? 700 : 400 }}>{c.price}</Typography>
                      </Box>
                      <Typography variant="caption" color={c.gap_to_rack && Number(c.gap_to_rack) < 0 ? 'success.main' : 'text.secondary'}>
                        {formatGap(c.gap_to_rack)} vs rack
                      </Typography>
                      {c.accepted ? (
                        <Chip size="small" variant="outlined" color="success" label="Accepted" />
                      ) : closed ? null : (
                        <Button size="small" disabled={state.isLoading || c.quote_line_id == null} onClick={() => c.quote_line_id && onAccept(c.quote_line_id)}>
                          Accept
                        </Button>
                      )}
                    </Stack>
                  )}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function RequestView() {
  const { id } = useParams();
  const requestId = Number(id);
  const navigate = useNavigate();
  const request = useQuoteRequestQuery(requestId, { skip: !requestId, pollingInterval: 15_000 });
  const grid = useQuoteComparisonQuery(requestId, { skip: !requestId, pollingInterval: 15_000 });
  if (!requestId) return null;
  const r = request.data;
  return (
    <PageBody>
      <Button startIcon={<ArrowBack />} onClick={() => navigate('/price-quotes')} sx={{ mb: 1 }}>All quote requests</Button>
      {request.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {request.isError && <Alert severity="error">{errorText(request.error, MSG_REQUEST)}</Alert>}
      {r && (
        <>
          <PageHeader
            title={`Quote request ${r.number}`}
            subtitle={`Prices for ${dayjs(r.quote_date).format('MMM D, YYYY')} · ${Number(r.quantity).toLocaleString()} gallons · accepted prices start on that day`}
          />
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>Asked</Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {r.recipients.map((rc) => (
                <Chip key={rc.id} label={`${rc.supplier.name} · ${rc.email_status ?? 'not sent'}`} color={rc.email_status === 'sent' ? 'success' : rc.email_status === 'failed' ? 'error' : 'default'} variant="outlined" />
              ))}
            </Stack>
            <Typography variant="body2" sx={{ mt: 1 }} data-testid="reply-to">
              {r.reply_to ? <>Replies go to <b>{r.reply_to}</b> (the emails&apos; Reply-To).</> : 'These emails asked for no reply address: replies went to the sender address, which nobody reads.'}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {r.quotes.length === 0
                ? 'No quote yet: replies show up in Email › Inbox; verify them there to add them here.'
                : `${r.quotes.length} quote${r.quotes.length === 1 ? '' : 's'} received.`}
            </Typography>
          </Paper>
          {r.status === 'closed' && (
            <Alert severity="info" sx={{ mb: 2 }}>This request is closed: it takes no more quotes and its prices can no longer be accepted.</Alert>
          )}
          <Typography variant="h6" sx={{ mb: 1 }}>Comparison</Typography>
          {grid.isError && <Alert severity="error">{errorText(grid.error, MSG_REQUEST)}</Alert>}
          {grid.data && <Grid grid={grid.data} requestId={requestId} closed={r.status === 'closed'} />}
          {grid.data && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
              Rack: the lowest buying price in force on {dayjs(grid.data.rack_date).format('MMM D, YYYY')} at the terminal. Accepting a price saves it as the supplier&apos;s buying price from the request&apos;s date.
            </Typography>
          )}
          {r.status !== 'closed' && <PhoneQuoteForm key={r.id} request={r} />}
        </>
      )}
    </PageBody>
  );
}

export default function PriceQuotesPage() {
  return (
    <Routes>
      <Route index element={<RequestList />} />
      <Route path=":id" element={<RequestView />} />
    </Routes>
  );
}
