import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import LocalShipping from '@mui/icons-material/LocalShipping';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { formPageGate, stampOf, useRouteId, useStampedForm } from '@/components/common/formPage';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { StatusChip } from '@/components/resource';
import { usePermissions, useProductOptions, useSupplierOptions, useTerminalOptions } from '@/lib/api/lookups';
import { Combo, Row, Section, Timeline, useCan } from './parts';
import {
  BILL_STATUSES,
  MATCH_STATUSES,
  PO_STATUSES,
  errorText,
  money,
  price,
  qty,
  useAddReceiptMutation,
  useCreatePurchaseOrderMutation,
  useDefaultCostQuery,
  usePoActionMutation,
  usePoTaxesQuery,
  usePurchaseOrderQuery,
  useRemoveReceiptMutation,
  useUpdatePurchaseOrderMutation,
  type Po,
  type PoCreate,
} from './purchasingApi';

interface LineForm {
  key: string;
  id?: number;
  product_id: number | null;
  quantity: string;
  unit_cost: string;
}
interface PoForm {
  supplier_id: number | null;
  terminal_id: number | null;
  order_date: string;
  expected_date: string;
  reference: string;
  notes: string;
  lines: LineForm[];
}

let seq = 0;
const nextKey = () => `p${++seq}`;
const today = () => new Date().toISOString().slice(0, 10);
const emptyLine = (): LineForm => ({ key: nextKey(), product_id: null, quantity: '', unit_cost: '' });

function toForm(po: Po | undefined): PoForm {
  if (!po) return { supplier_id: null, terminal_id: null, order_date: today(), expected_date: '', reference: '', notes: '', lines: [emptyLine()] };
  return {
    supplier_id: po.supplier_id,
    terminal_id: po.terminal_id,
    order_date: po.order_date,
    expected_date: po.expected_date ?? '',
    reference: po.reference,
    notes: po.notes,
    lines: po.lines.map((l) => ({
      key: `l${l.id}`,
      id: l.id,
      product_id: l.product_id,
      quantity: String(Number(l.quantity)),
      // A cost from the buying price stays empty: it follows the price in force when the draft is saved.
      unit_cost: l.unit_cost_source === 'manual' && l.unit_cost ? String(Number(l.unit_cost)) : '',
    })),
  };
}

function toBody(f: PoForm): PoCreate {
  return {
    supplier_id: f.supplier_id ?? 0,
    terminal_id: f.terminal_id,
    order_date: f.order_date || null,
    expected_date: f.expected_date || null,
    reference: f.reference,
    notes: f.notes,
    lines: f.lines
      .filter((l) => l.product_id)
      .map((l) => ({ id: l.id ?? null, product_id: l.product_id ?? 0, quantity: l.quantity, unit_cost: l.unit_cost || null })),
  };
}

/** The buying price in force for a line not yet saved (what the cost defaults to). */
function DefaultCost({ supplierId, terminalId, productId, date }: { supplierId: number | null; terminalId: number | null; productId: number | null; date: string }) {
  const skip = !supplierId || !productId;
  const q = useDefaultCostQuery({ supplier_id: supplierId ?? 0, product_id: productId ?? 0, terminal_id: terminalId, order_date: date || null }, { skip });
  if (skip) return null;
  if (q.isFetching) return <Typography variant="caption" color="text.secondary">…</Typography>;
  const cost = q.data?.unit_cost;
  return (
    <Typography variant="caption" color={cost ? 'text.secondary' : 'warning.main'} data-testid="default-cost">
      {cost ? `Buying price ${price(cost)}` : 'No buying price in force: type the cost'}
    </Typography>
  );
}

function ReceiveDialog({ po, open, onClose }: { po: Po; open: boolean; onClose: () => void }) {
  const [bol, setBol] = useState('');
  const [date, setDate] = useState(today());
  const [lines, setLines] = useState<Record<number, { gross: string; net: string }>>({});
  const [error, setError] = useState<string | null>(null);
  const [add, adding] = useAddReceiptMutation();
  const value = (id: number, k: 'gross' | 'net', fallback: string) => lines[id]?.[k] ?? fallback;
  const submit = async () => {
    setError(null);
    if (!bol.trim()) return setError('Type the bill of lading number.');
    const body = po.lines.map((l) => {
      const remaining = Math.max(Number(l.quantity) - Number(l.received_net), 0);
      return { line_id: l.id, gross_quantity: value(l.id, 'gross', String(remaining)) || '0', net_quantity: value(l.id, 'net', String(remaining)) || '0' };
    });
    try {
      await add({ id: po.id, body: { bol_number: bol.trim(), received_on: date || null, notes: '', lines: body } }).unwrap();
      toast.success(`Receipt ${bol.trim()} recorded`);
      setBol('');
      setLines({});
      onClose();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="receive-title">
      <DialogTitle id="receive-title">Receive {po.number}</DialogTitle>
      <DialogContent>
        {error && <Alert severity="error" sx={{ mb: 1 }}>{error}</Alert>}
        <Box sx={{ display: 'flex', gap: 1, mt: 1, mb: 2, flexWrap: 'wrap' }}>
          <TextField size="small" label="Bill of lading number" required value={bol} onChange={(e) => setBol(e.target.value)} slotProps={{ htmlInput: { maxLength: 60 } }} sx={{ flex: 1, minWidth: 180 }} />
          <TextField size="small" type="date" label="Received on" value={date} onChange={(e) => setDate(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        </Box>
        {po.lines.map((l) => {
          const remaining = String(Math.max(Number(l.quantity) - Number(l.received_net), 0));
          return (
            <Box key={l.id} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: '1.6fr 1fr 1fr' }, gap: 1, alignItems: 'center', mb: 1 }}>
              <Typography variant="body2" sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}>
                {l.product.name} <Typography component="span" variant="caption" color="text.secondary">ordered {qty(l.quantity)}</Typography>
              </Typography>
              <TextField size="small" type="number" label={`Gross ${l.product.name}`} value={value(l.id, 'gross', remaining)} onChange={(e) => setLines((s) => ({ ...s, [l.id]: { gross: e.target.value, net: value(l.id, 'net', remaining) } }))} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
              <TextField size="small" type="number" label={`Net ${l.product.name}`} value={value(l.id, 'net', remaining)} onChange={(e) => setLines((s) => ({ ...s, [l.id]: { net: e.target.value, gross: value(l.id, 'gross', remaining) } }))} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
            </Box>
          );
        })}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={adding.isLoading}>
          Record receipt
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function PoSide({ po }: { po: Po }) {
  const taxes = usePoTaxesQuery(po.id);
  const canReceive = useCan('purchase_order.receive');
  const [remove] = useRemoveReceiptMutation();
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          Totals
        </Typography>
        <Row label="Subtotal" value={money(po.subtotal)} />
        {(taxes.data?.taxable_items ?? []).flatMap((item) =>
          (item.taxes as { tax_id: number; name: string; amount: string }[]).map((t) => <Row key={`${String(item.key)}-${t.tax_id}`} label={t.name} value={money(t.amount)} />),
        )}
        <Row label="Taxes" value={money(po.tax_total)} />
        <Divider sx={{ my: 0.5 }} />
        <Row label="Total" value={money(po.total)} strong />
      </Paper>
      <Section title="Receipts">
        {po.receipts.length === 0 && <Typography variant="body2" color="text.secondary">Nothing received yet.</Typography>}
        {po.receipts.map((r) => (
          <Box key={r.id} data-testid="receipt" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
            <Box sx={{ flex: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                BOL {r.bol_number} · {r.received_on}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {r.lines.map((rl) => `${po.lines.find((l) => l.id === rl.line_id)?.product.name ?? ''}: ${qty(rl.gross_quantity)} gross / ${qty(rl.net_quantity)} net`).join('; ')}
              </Typography>
            </Box>
            {po.status === 'received' && canReceive && (
              <IconButton aria-label={`Remove receipt ${r.bol_number}`} size="small" onClick={() => remove({ id: po.id, receiptId: r.id }).unwrap().catch((e: unknown) => toast.error(errorText(e)))}>
                <DeleteOutlined fontSize="small" />
              </IconButton>
            )}
          </Box>
        ))}
      </Section>
      <Section title="Bills">
        {po.bills.length === 0 && <Typography variant="body2" color="text.secondary">No bill yet.</Typography>}
        {po.bills.map((b) => (
          <Box key={b.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, flexWrap: 'wrap' }}>
            <Link component={RouterLink} to={`/purchase-order/bills/${b.id}`} sx={{ flex: 1 }}>
              {b.bill_number}
            </Link>
            <Typography variant="body2">{money(b.total)}</Typography>
            <StatusChip value={b.match_status} styles={MATCH_STATUSES} />
            <StatusChip value={b.status} styles={BILL_STATUSES} />
          </Box>
        ))}
      </Section>
      <Section title="Timeline">
        <Timeline events={po.timeline} />
      </Section>
    </>
  );
}

const ACTION_VERBS: Record<string, string> = { place: 'placed', reopen: 'back in draft', close: 'closed', cancel: 'cancelled' };

export default function PurchaseOrderFormPage() {
  const { rawId, id: poId } = useRouteId();
  const navigate = useNavigate();
  const q = usePurchaseOrderQuery(poId ?? 0, { skip: !poId });
  const po = poId ? q.data : undefined;
  const { form, setForm, loaded } = useStampedForm<PoForm>(() => toForm(undefined), po ? { stamp: stampOf(po), form: () => toForm(po) } : null);
  const [error, setError] = useState<string | null>(null);
  const [receiving, setReceiving] = useState(false);
  const suppliers = useSupplierOptions();
  const terminals = useTerminalOptions();
  const products = useProductOptions();
  const perms = usePermissions('purchase_order');
  const billPerms = usePermissions('bill');
  const [create, creating] = useCreatePurchaseOrderMutation();
  const [update, updating] = useUpdatePurchaseOrderMutation();
  const [act, acting] = usePoActionMutation();
  const mayReceive = useCan('purchase_order.receive');
  const editable = !po || po.status === 'draft';
  const set = (patch: Partial<PoForm>) => setForm((f) => ({ ...f, ...patch }));
  const setLine = (key: string, patch: Partial<LineForm>) => setForm((f) => ({ ...f, lines: f.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));

  const save = async () => {
    setError(null);
    if (!form.supplier_id) return setError('Choose a supplier.');
    if (form.lines.some((l) => l.product_id && !(Number(l.quantity) > 0))) return setError('Every product line needs a quantity above 0.');
    try {
      if (po) {
        const body = toBody(form);
        const saved = await update({ id: po.id, body: editable ? body : { expected_date: body.expected_date, reference: body.reference, notes: body.notes } }).unwrap();
        loaded(stampOf(saved), toForm(saved));
        toast.success('Purchase order saved');
      } else {
        const saved = await create(toBody(form)).unwrap();
        toast.success(`Purchase order ${saved.number} created`);
        navigate(`/purchase-order/${saved.id}`, { replace: true });
      }
    } catch (e) {
      setError(errorText(e));
    }
  };

  const run = async (action: string) => {
    if (!po) return;
    setError(null);
    let reason = '';
    if (action === 'cancel') {
      const typed = window.prompt('Why is this purchase order cancelled? (optional)');
      if (typed === null) return;
      reason = typed;
    }
    try {
      const saved = await act({ id: po.id, action, reason }).unwrap();
      toast.success(`Purchase order ${saved.number} ${ACTION_VERBS[action] ?? action}`);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const gate = formPageGate({ rawId, id: poId, query: q, loadingLabel: 'Loading the purchase order', notFound: 'Purchase order not found', errorText });
  if (gate) return gate;

  const canReceive = !!po && ['ordered', 'received'].includes(po.status) && mayReceive;
  return (
    <PageBody>
      <PageHeader
        title={po ? `Purchase order ${po.number}` : 'New purchase order'}
        subtitle={po ? <StatusChip value={po.status} styles={PO_STATUSES} /> : 'A draft: unit costs default to the supplier’s buying price in force on the order date.'}
        actions={
          <Button startIcon={<ArrowBack />} onClick={() => navigate('/purchase-order')}>
            Purchase orders
          </Button>
        }
      />
      {po && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
          {po.allowed_actions
            .filter((m) => m.action !== 'receive')
            .map((m) => (
              <Button key={m.action} variant={m.action === 'place' ? 'contained' : 'outlined'} color={m.action === 'cancel' ? 'error' : 'primary'} disabled={acting.isLoading || !perms.change} onClick={() => run(m.action)}>
                {m.label}
              </Button>
            ))}
          {canReceive && (
            <Button variant="contained" startIcon={<LocalShipping />} onClick={() => setReceiving(true)}>
              Receive
            </Button>
          )}
          {['ordered', 'received', 'billed'].includes(po.status) && billPerms.add && (
            <Button variant="outlined" startIcon={<ReceiptLong />} onClick={() => navigate(`/purchase-order/bills/new?po=${po.id}`)}>
              Enter bill
            </Button>
          )}
        </Box>
      )}
      {po && <ReceiveDialog po={po} open={receiving} onClose={() => setReceiving(false)} />}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Section title="Supplier and terminal">
            <Grid container spacing={1.5}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <Combo label="Supplier" required value={form.supplier_id} options={suppliers.options} loading={suppliers.loading} disabled={!editable} onChange={(v) => set({ supplier_id: v })} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <Combo label="Terminal" value={form.terminal_id} options={terminals.options} loading={terminals.loading} disabled={!editable} onChange={(v) => set({ terminal_id: v })} />
              </Grid>
              <Grid size={{ xs: 6, sm: 3 }}>
                <TextField size="small" fullWidth type="date" label="Order date" value={form.order_date} disabled={!editable} onChange={(e) => set({ order_date: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
              </Grid>
              <Grid size={{ xs: 6, sm: 3 }}>
                <TextField size="small" fullWidth type="date" label="Expected" value={form.expected_date} onChange={(e) => set({ expected_date: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField size="small" fullWidth label="Supplier reference" value={form.reference} onChange={(e) => set({ reference: e.target.value })} slotProps={{ htmlInput: { maxLength: 60 } }} />
              </Grid>
              <Grid size={12}>
                <TextField size="small" fullWidth multiline label="Notes" value={form.notes} onChange={(e) => set({ notes: e.target.value })} />
              </Grid>
            </Grid>
          </Section>

          <Section
            title="Products"
            action={
              editable && (
                <Button size="small" startIcon={<Add />} onClick={() => set({ lines: [...form.lines, emptyLine()] })}>
                  Add product
                </Button>
              )
            }
          >
            {!editable && <Alert severity="info" sx={{ mb: 1 }}>The order is {PO_STATUSES[po?.status ?? '']?.label.toLowerCase()}: its products and costs are fixed.</Alert>}
            {form.lines.map((l, i) => {
              const saved = po?.lines.find((x) => x.id === l.id);
              return (
                <Box key={l.key} data-testid="po-line" sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', md: '2.2fr 0.9fr 1fr 1.3fr auto' }, alignItems: 'center', py: 1, borderTop: i ? 1 : 0, borderColor: 'divider' }}>
                  <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}>
                    <Combo label={`Product ${i + 1}`} value={l.product_id} options={products.options} loading={products.loading} disabled={!editable} onChange={(v) => setLine(l.key, { product_id: v })} />
                  </Box>
                  <TextField size="small" label="Quantity" type="number" value={l.quantity} disabled={!editable} onChange={(e) => setLine(l.key, { quantity: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                  <TextField size="small" label="Unit cost" type="number" placeholder={saved?.unit_cost ? String(Number(saved.unit_cost)) : 'default'} value={l.unit_cost} disabled={!editable} onChange={(e) => setLine(l.key, { unit_cost: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' }, inputLabel: { shrink: true } }} />
                  <Box>
                    {saved ? (
                      <>
                        <Typography variant="body2">
                          {price(saved.unit_cost)} · {money(saved.amount)}
                        </Typography>
                        <Typography variant="caption" color="text.secondary">
                          {saved.unit_cost_source === 'buying_price' ? 'buying price' : saved.unit_cost_source || 'no cost'}
                          {Number(saved.received_net) > 0 ? ` · received ${qty(saved.received_net)} net` : ''}
                          {Number(saved.billed_quantity) > 0 ? ` · billed ${qty(saved.billed_quantity)}` : ''}
                        </Typography>
                      </>
                    ) : (
                      editable && !l.unit_cost && <DefaultCost supplierId={form.supplier_id} terminalId={form.terminal_id} productId={l.product_id} date={form.order_date} />
                    )}
                  </Box>
                  {editable ? (
                    <IconButton aria-label={`Remove product ${i + 1}`} onClick={() => set({ lines: form.lines.filter((x) => x.key !== l.key) })}>
                      <DeleteOutlined />
                    </IconButton>
                  ) : (
                    <span />
                  )}
                </Box>
              );
            })}
          </Section>
          <Box sx={{ display: 'flex', gap: 1, mb: 2 }}>
            <Button variant="contained" onClick={save} disabled={creating.isLoading || updating.isLoading || (!!po && ['closed', 'cancelled'].includes(po.status)) || !(po ? perms.change : perms.add)}>
              {po ? 'Save changes' : 'Create draft'}
            </Button>
            {(creating.isLoading || updating.isLoading) && <CircularProgress size={24} aria-label="Saving" />}
          </Box>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          {po ? (
            <PoSide po={po} />
          ) : (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="body2" color="text.secondary">
                Totals, taxes, receipts, bills and the timeline appear once the draft is created.
              </Typography>
            </Paper>
          )}
        </Grid>
      </Grid>
    </PageBody>
  );
}
