import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageSpinner } from '@/components/common/PageSpinner';
import { isApiError } from '@/lib/api/errors';
import { useDeliveryEntryQuery, useRecordDeliveryMutation, type Entry } from './deliveryApi';
import { deliveredOf, grossOf, lineBody, lineForm, lineProblem, netOf, type LineForm } from './entryForm';

const OPEN = ['assigned', 'in_delivery'];
const fmt = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 3 }));
const GROUP_LABEL: Record<string, string> = { gasoline: 'gasoline', distillate: 'diesel/fuel oil', jet: 'jet/kero', transition: 'transition', none: '' };

/** /delivery-order-entry/{id}: the office types a paper delivery ticket into an order and ends the delivery. */
export default function DeliveryEntryPage() {
  const { id } = useParams();
  const orderId = Number(id);
  const valid = Number.isInteger(orderId) && orderId > 0;
  const { data, error, isLoading } = useDeliveryEntryQuery(orderId, { skip: !valid });
  if (!valid) return <Alert severity="error">Sales order not found</Alert>;
  if (isLoading) return <PageSpinner />;
  if (error || !data) return <Alert severity="error">{isApiError(error) ? error.message : 'Failed to fetch sales order'}</Alert>;
  return <EntryForm key={`${data.sales_order_id}-${data.status}`} entry={data} />;
}

function EntryForm({ entry }: { entry: Entry }) {
  const navigate = useNavigate();
  const [record, state] = useRecordDeliveryMutation();
  const [lines, setLines] = useState<LineForm[]>(() => entry.lines.map(lineForm));
  const [signer, setSigner] = useState(entry.signer_name);
  const [reference, setReference] = useState(entry.reference);
  const [deliveredAt, setDeliveredAt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const open = OPEN.includes(entry.status);
  const set = (i: number, patch: Partial<LineForm>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  const submit = async () => {
    setProblem(null);
    const first = lines.map((f, i) => lineProblem(f, entry.lines[i])).find(Boolean);
    if (first) {
      setProblem(first);
      return;
    }
    try {
      const tickets = await record({
        orderId: entry.sales_order_id,
        body: {
          lines: lines.map(lineBody),
          signer_name: signer.trim(),
          reference: reference.trim(),
          delivered_at: deliveredAt ? new Date(deliveredAt).toISOString() : null,
          photo_keys: [],
          complete: true,
        },
      }).unwrap();
      toast.success(`Delivery recorded on ${tickets.map((t) => t.number).join(', ')}`);
      if (tickets[0]) navigate(`/delivery-ticket/${tickets[0].id}`);
    } catch (e) {
      setProblem(isApiError(e) ? e.message : 'Error delivering products');
    }
  };

  const totalNet = lines.reduce((s, f, i) => s + (netOf(f, entry.lines[i]) ?? 0), 0);
  return (
    <Box sx={{ p: { xs: 1, md: 2 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'baseline', mb: 2 }}>
        <Typography variant="h5" component="h1">
          Delivery entry · {entry.sales_order_number}
        </Typography>
        <Typography color="text.secondary">
          {entry.customer_name}
          {entry.ship_to_name ? ` — ${entry.ship_to_name}` : ''} · {entry.status.replace('_', ' ')}
          {entry.po_number ? ` · PO ${entry.po_number}` : ''}
        </Typography>
        <Box sx={{ flex: 1 }} />
        <Button component={RouterLink} to={`/sales-order/${entry.sales_order_id}`}>
          Back to the order
        </Button>
      </Box>
      {!open && (
        <Alert severity="info" sx={{ mb: 2 }}>
          This order is {entry.status.replace('_', ' ')}: a delivery can be entered while it is assigned or in delivery.
          {entry.tickets.map((t) => (
            <Button key={t.id} size="small" component={RouterLink} to={`/delivery-ticket/${t.id}`} sx={{ ml: 1 }}>
              {t.number}
            </Button>
          ))}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
        <Table size="small" aria-label="Delivered products">
          <TableHead>
            <TableRow>
              <TableCell>Product</TableCell>
              <TableCell align="right">Ordered</TableCell>
              <TableCell>Tank</TableCell>
              <TableCell>Meter start</TableCell>
              <TableCell>Meter end</TableCell>
              <TableCell>Gross</TableCell>
              <TableCell>Temp °F</TableCell>
              <TableCell align="right">Net @60°F</TableCell>
              <TableCell>Delivered</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {entry.lines.map((l, i) => {
              const f = lines[i];
              if (!f) return null;
              const gross = grossOf(f);
              const net = netOf(f, l);
              const corrected = (l.vcf_group || 'none') !== 'none';
              const label = (what: string) => `${what} — ${l.product_name}`;
              return (
                <TableRow key={l.line_item_id}>
                  <TableCell sx={{ minWidth: 160 }}>
                    <Typography sx={{ fontWeight: 600 }}>{l.product_name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {l.product_code}
                      {corrected ? ` · ${l.api_gravity ?? '?'} API ${GROUP_LABEL[l.vcf_group] ?? ''}` : ''}
                    </Typography>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {Number(l.ordered_quantity).toLocaleString('en-US')} {l.sold_as}
                  </TableCell>
                  <TableCell sx={{ minWidth: 130 }}>
                    <TextField select size="small" fullWidth value={f.tank_id ?? ''} disabled={!open} onChange={(e) => set(i, { tank_id: e.target.value === '' ? null : Number(e.target.value) })} slotProps={{ htmlInput: { 'aria-label': label('Tank') } }}>
                      <MenuItem value="">—</MenuItem>
                      {entry.tanks.map((t) => (
                        <MenuItem key={t.id} value={t.id}>
                          {t.asset_name}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  {(['meter_start', 'meter_end'] as const).map((k) => (
                    <TableCell key={k} sx={{ minWidth: 110 }}>
                      <TextField size="small" type="number" value={f[k]} disabled={!open} onChange={(e) => set(i, { [k]: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 0.1, 'aria-label': label(k === 'meter_start' ? 'Meter start' : 'Meter end') } }} />
                    </TableCell>
                  ))}
                  <TableCell sx={{ minWidth: 100 }}>
                    <TextField size="small" type="number" value={f.gross_volume} placeholder={gross === null ? '' : String(gross)} disabled={!open} onChange={(e) => set(i, { gross_volume: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 0.1, 'aria-label': label('Gross') } }} />
                  </TableCell>
                  <TableCell sx={{ minWidth: 80 }}>
                    <TextField size="small" type="number" value={f.temperature_f} disabled={!open || !corrected} onChange={(e) => set(i, { temperature_f: e.target.value })} slotProps={{ htmlInput: { min: -50, max: 300, step: 0.1, 'aria-label': label('Temperature') } }} />
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }} data-testid={`net-${l.line_item_id}`}>
                    {fmt(net)}
                  </TableCell>
                  <TableCell sx={{ minWidth: 100 }}>
                    <TextField size="small" type="number" value={f.delivered_quantity} placeholder={fmt(deliveredOf({ ...f, delivered_quantity: '' }, l))} disabled={!open} onChange={(e) => set(i, { delivered_quantity: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 0.1, 'aria-label': label('Delivered') } }} />
                  </TableCell>
                </TableRow>
              );
            })}
            <TableRow>
              <TableCell colSpan={7} align="right">
                Total net gallons
              </TableCell>
              <TableCell align="right" sx={{ fontWeight: 700 }}>
                {fmt(totalNet)}
              </TableCell>
              <TableCell />
            </TableRow>
          </TableBody>
        </Table>
      </Paper>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Net gallons are corrected to 60 °F with the product's API gravity (API MPMS 11.1, table 6B). Left empty, the delivered quantity is the net (corrected fuel) or the gross.
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 2, mb: 2, maxWidth: 900 }}>
        <TextField label="Paper ticket number" value={reference} onChange={(e) => setReference(e.target.value)} disabled={!open} slotProps={{ htmlInput: { maxLength: 60 } }} />
        <TextField label="Signed by" value={signer} onChange={(e) => setSigner(e.target.value)} disabled={!open} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField label="Delivered at" type="datetime-local" value={deliveredAt} onChange={(e) => setDeliveredAt(e.target.value)} disabled={!open} slotProps={{ inputLabel: { shrink: true } }} helperText="Empty: now" />
      </Box>
      {problem && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}
      <Button variant="contained" size="large" disabled={!open || state.isLoading} onClick={() => void submit()}>
        Record delivery
      </Button>
    </Box>
  );
}
