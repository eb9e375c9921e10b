import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { formPageGate, stampOf, useRouteId, useStampedForm } from '@/components/common/formPage';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { StatusChip, type Option } from '@/components/resource';
import { usePaymentTermOptions, usePermissions, useProductOptions, useSupplierOptions } from '@/lib/api/lookups';
import { BillMatchTable } from './BillMatchTable';
import { lineAmount, linesFromPo, type BillLineDraft } from './matchView';
import { Combo, Row, Section, Timeline, useCan } from './parts';
import {
  BILL_STATUSES,
  MATCH_STATUSES,
  MSG_JOB_LOGS,
  errorText,
  isMatchRefusal,
  money,
  useBillActionMutation,
  useBillJobLogsQuery,
  useBillQuery,
  useCreateBillMutation,
  useOpenPurchaseOrdersQuery,
  usePurchaseOrderQuery,
  useUpdateBillMutation,
  type Bill,
  type BillCreate,
} from './purchasingApi';

interface ChargeForm {
  key: string;
  kind: 'tax' | 'fee';
  name: string;
  amount: string;
}
interface BillForm {
  supplier_id: number | null;
  bill_number: string;
  bill_date: string;
  due_date: string;
  payment_term_id: number | null;
  purchase_order_id: number | null;
  freight: string;
  notes: string;
  lines: BillLineDraft[];
  charges: ChargeForm[];
}

let seq = 0;
const nextKey = () => `b${++seq}`;
const today = () => new Date().toISOString().slice(0, 10);
const emptyLine = (): BillLineDraft => ({ key: nextKey(), product_id: null, description: '', purchase_order_line_id: null, bol_number: '', quantity: '', unit_price: '' });

function toForm(b: Bill | undefined): BillForm {
  if (!b) return { supplier_id: null, bill_number: '', bill_date: today(), due_date: '', payment_term_id: null, purchase_order_id: null, freight: '', notes: '', lines: [emptyLine()], charges: [] };
  return {
    supplier_id: b.supplier_id,
    bill_number: b.bill_number,
    bill_date: b.bill_date,
    due_date: b.due_date,
    payment_term_id: b.payment_term_id,
    purchase_order_id: b.purchase_order_id,
    freight: Number(b.freight) ? String(Number(b.freight)) : '',
    notes: b.notes,
    lines: b.lines.map((l) => ({ key: `l${l.id}`, product_id: l.product_id, description: l.description, purchase_order_line_id: l.purchase_order_line_id, bol_number: l.bol_number, quantity: String(Number(l.quantity)), unit_price: String(Number(l.unit_price)) })),
    charges: b.charges.map((c) => ({ key: `c${c.id}`, kind: c.kind === 'fee' ? 'fee' : 'tax', name: c.name, amount: String(Number(c.amount)) })),
  };
}

function toBody(f: BillForm): BillCreate {
  return {
    supplier_id: f.supplier_id ?? 0,
    bill_number: f.bill_number.trim(),
    bill_date: f.bill_date,
    due_date: f.due_date || null,
    payment_term_id: f.payment_term_id,
    purchase_order_id: f.purchase_order_id,
    terminal_id: null,
    freight: f.freight || '0',
    notes: f.notes,
    lines: f.lines
      .filter((l) => l.product_id || l.description.trim())
      .map((l) => ({ product_id: l.product_id, description: l.description, purchase_order_line_id: l.purchase_order_line_id, bol_number: l.bol_number, gross_quantity: null, quantity: l.quantity, unit_price: l.unit_price || '0', amount: null })),
    charges: f.charges.filter((c) => c.name.trim()).map((c) => ({ kind: c.kind, name: c.name.trim(), tax_id: null, amount: c.amount || '0' })),
  };
}

function BillActions({ bill }: { bill: Bill }) {
  const [act, acting] = useBillActionMutation();
  const mayApprove = useCan('bill.approve');
  const mayOverride = useCan('bill.override_match');
  const mayPay = useCan('bill.pay');
  const mayChange = useCan('bill.change');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: string, override = false) => {
    setError(null);
    let reason = '';
    if (override || action === 'void') {
      const typed = window.prompt(override ? 'Why is this bill approved out of tolerance?' : 'Why is this bill voided? (optional)');
      if (typed === null) return;
      reason = typed;
    }
    try {
      const saved = await act({ id: bill.id, action, override, reason }).unwrap();
      setRefusal(null);
      toast.success(`Bill ${saved.bill_number} ${BILL_STATUSES[saved.status]?.label.toLowerCase() ?? saved.status}`);
    } catch (e) {
      if (isMatchRefusal(e)) setRefusal(errorText(e));
      else setError(errorText(e));
    }
  };
  const allowed = (name: string) => bill.allowed_actions.some((m) => m.action === name);
  const outOfTolerance = bill.match_status === 'out_of_tolerance';
  return (
    <Box sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {allowed('approve') && mayApprove && (
          <Button variant="contained" disabled={acting.isLoading} onClick={() => run('approve')}>
            Approve
          </Button>
        )}
        {allowed('approve') && mayApprove && outOfTolerance && mayOverride && (
          <Button variant="outlined" color="warning" disabled={acting.isLoading} onClick={() => run('approve', true)}>
            Approve with override
          </Button>
        )}
        {allowed('pay') && mayPay && (
          <Button variant="contained" color="success" disabled={acting.isLoading} onClick={() => run('pay')}>
            Mark paid
          </Button>
        )}
        {allowed('unapprove') && mayApprove && (
          <Button variant="outlined" disabled={acting.isLoading} onClick={() => run('unapprove')}>
            Back to draft
          </Button>
        )}
        {allowed('void') && mayChange && (
          <Button variant="outlined" color="error" disabled={acting.isLoading} onClick={() => run('void')}>
            Void
          </Button>
        )}
      </Box>
      {outOfTolerance && allowed('approve') && !refusal && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          This bill is out of tolerance against its purchase order: approving it needs the permission to override the three-way match{mayOverride ? '' : ' (ask an administrator)'}.
        </Alert>
      )}
      {refusal && <Alert severity="warning" sx={{ mt: 1 }} onClose={() => setRefusal(null)}>{refusal}</Alert>}
      {error && <Alert severity="error" sx={{ mt: 1 }} onClose={() => setError(null)}>{error}</Alert>}
    </Box>
  );
}

function BillLogs({ billId }: { billId: number }) {
  const q = useBillJobLogsQuery(billId);
  if (q.isLoading) return <CircularProgress size={20} aria-label="Loading job logs" />;
  if (q.error) return <Typography variant="body2" color="error">{MSG_JOB_LOGS}</Typography>;
  if (!q.data?.length) return <Typography variant="body2" color="text.secondary">No background job for this bill.</Typography>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {q.data.map((j) => (
        <li key={j.id}>
          <Typography variant="body2">
            {j.kind} · {j.status}
            {j.error ? ` · ${j.error}` : ''}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

export default function BillFormPage() {
  const { rawId, id: billId } = useRouteId();
  const [search] = useSearchParams();
  const fromPoId = !rawId && /^\d+$/.test(search.get('po') ?? '') ? Number(search.get('po')) : null;
  const navigate = useNavigate();
  const q = useBillQuery(billId ?? 0, { skip: !billId });
  const bill = billId ? q.data : undefined;
  const fromPo = usePurchaseOrderQuery(fromPoId ?? 0, { skip: !fromPoId });
  const po = fromPo.data;
  // A new bill from a purchase order starts with the order's supplier and lines (stamped `po:<id>`).
  const source = bill
    ? { stamp: stampOf(bill), form: () => toForm(bill) }
    : po
      ? {
          stamp: `po:${po.id}`,
          form: (): BillForm => {
            const bol = po.receipts.length === 1 ? po.receipts[0].bol_number : '';
            return { ...toForm(undefined), supplier_id: po.supplier_id, purchase_order_id: po.id, lines: linesFromPo(po.lines, bol) };
          },
        }
      : null;
  const { form, setForm, loaded } = useStampedForm<BillForm>(() => toForm(undefined), source);
  const [error, setError] = useState<string | null>(null);
  const suppliers = useSupplierOptions();
  const products = useProductOptions();
  const terms = usePaymentTermOptions();
  const perms = usePermissions('bill');
  const openPos = useOpenPurchaseOrdersQuery(form.supplier_id ?? 0, { skip: !form.supplier_id });
  const poOptions: Option[] = (openPos.data ?? []).map((p) => ({ value: p.id, label: `${p.number} · ${p.order_date}${p.terminal ? ` · ${p.terminal.name}` : ''}` }));
  if (bill?.purchase_order && !poOptions.some((o) => o.value === bill.purchase_order_id)) poOptions.push({ value: bill.purchase_order.id, label: bill.purchase_order.number });
  const [create, creating] = useCreateBillMutation();
  const [update, updating] = useUpdateBillMutation();
  const editable = !bill || bill.status === 'draft';
  const set = (patch: Partial<BillForm>) => setForm((f) => ({ ...f, ...patch }));
  const setLine = (key: string, patch: Partial<BillLineDraft>) => setForm((f) => ({ ...f, lines: f.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));
  const setCharge = (key: string, patch: Partial<ChargeForm>) => setForm((f) => ({ ...f, charges: f.charges.map((c) => (c.key === key ? { ...c, ...patch } : c)) }));

  const save = async () => {
    setError(null);
    if (!form.supplier_id) return setError('Choose a supplier.');
    if (!form.bill_number.trim()) return setError('Type the supplier’s bill number.');
    if (form.lines.some((l) => (l.product_id || l.description.trim()) && !(Number(l.quantity) > 0))) return setError('Every line needs a quantity above 0.');
    try {
      if (bill) {
        const body = toBody(form);
        const saved = await update({ id: bill.id, body: { ...body, due_date: body.due_date } }).unwrap();
        loaded(stampOf(saved), toForm(saved));
        toast.success('Bill saved');
      } else {
        const saved = await create(toBody(form)).unwrap();
        toast.success(`Bill ${saved.bill_number} created`);
        navigate(`/purchase-order/bills/${saved.id}`, { replace: true });
      }
    } catch (e) {
      setError(errorText(e));
    }
  };

  const gate = formPageGate({ rawId, id: billId, query: q, loadingLabel: 'Loading the bill', notFound: 'Bill not found', errorText });
  if (gate) return gate;

  const typedTotal =
    form.lines.reduce((s, l) => s + (lineAmount(l.quantity, l.unit_price) ?? 0), 0) + form.charges.reduce((s, c) => s + (Number(c.amount) || 0), 0) + (Number(form.freight) || 0);
  return (
    <PageBody>
      <PageHeader
        title={bill ? `Bill ${bill.bill_number}` : 'Enter a bill'}
        subtitle={
          bill ? (
            <Box component="span" sx={{ display: 'inline-flex', gap: 1 }}>
              <StatusChip value={bill.status} styles={BILL_STATUSES} />
              <StatusChip value={bill.match_status} styles={MATCH_STATUSES} />
              {bill.match_overridden && <StatusChip value="overridden" styles={{ overridden: { label: 'Match overridden', color: 'warning' } }} />}
            </Box>
          ) : (
            'A supplier’s bill: matched against its purchase order and receipts before approval.'
          )
        }
        actions={
          <Button startIcon={<ArrowBack />} onClick={() => navigate('/purchase-order/bills')}>
            Bills
          </Button>
        }
      />
      {bill && <BillActions bill={bill} />}
      {bill?.total_override_reason && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="total-override">
          Created although its lines and taxes ({money(bill.total)}) differ from the document&apos;s total
          {bill.document_total != null ? ` (${money(bill.document_total)})` : ''}
          {bill.total_override_at ? `, on ${new Date(bill.total_override_at).toLocaleString('en-US')}` : ''}. Reason: {bill.total_override_reason}
        </Alert>
      )}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 8 }}>
          {bill && (
            <Section title="Three-way match">
              <BillMatchTable match={bill.match} />
            </Section>
          )}
          <Section title="Supplier and bill">
            <Grid container spacing={1.5}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <Combo label="Supplier" required value={form.supplier_id} options={suppliers.options} loading={suppliers.loading} disabled={!editable} onChange={(v) => set({ supplier_id: v, purchase_order_id: null })} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField size="small" fullWidth required label="Bill number" value={form.bill_number} disabled={!editable} onChange={(e) => set({ bill_number: e.target.value })} slotProps={{ htmlInput: { maxLength: 60 } }} />
              </Grid>
              <Grid size={{ xs: 6, sm: 3 }}>
                <TextField size="small" fullWidth type="date" label="Bill date" value={form.bill_date} disabled={!editable} onChange={(e) => set({ bill_date: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
              </Grid>
              <Grid size={{ xs: 6, sm: 3 }}>
                <TextField size="small" fullWidth type="date" label="Due date" helperText={form.due_date ? '' : 'From the payment term'} value={form.due_date} disabled={!editable} onChange={(e) => set({ due_date: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <Combo label="Payment term (default: the supplier’s)" value={form.payment_term_id} options={terms.options} loading={terms.loading} disabled={!editable} onChange={(v) => set({ payment_term_id: v, due_date: '' })} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <Combo label="Purchase order" value={form.purchase_order_id} options={poOptions} loading={openPos.isLoading} disabled={!editable || !form.supplier_id} onChange={(v) => set({ purchase_order_id: v, lines: form.lines.map((l) => ({ ...l, purchase_order_line_id: null })) })} />
              </Grid>
              <Grid size={{ xs: 6, sm: 3 }}>
                <TextField size="small" fullWidth type="number" label="Freight" value={form.freight} disabled={!editable} onChange={(e) => set({ freight: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
              </Grid>
              <Grid size={12}>
                <TextField size="small" fullWidth multiline label="Notes" value={form.notes} disabled={!editable} onChange={(e) => set({ notes: e.target.value })} />
              </Grid>
            </Grid>
            {bill?.purchase_order && (
              <Typography variant="body2" sx={{ mt: 1 }}>
                Purchase order{' '}
                <Link component={RouterLink} to={`/purchase-order/${bill.purchase_order.id}`}>
                  {bill.purchase_order.number}
                </Link>
              </Typography>
            )}
          </Section>

          <Section
            title="Lines"
            action={
              editable && (
                <Button size="small" startIcon={<Add />} onClick={() => set({ lines: [...form.lines, emptyLine()] })}>
                  Add line
                </Button>
              )
            }
          >
            {form.lines.map((l, i) => (
              <Box key={l.key} data-testid="bill-line" sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', md: '2fr 1fr 0.9fr 0.9fr 0.9fr auto' }, alignItems: 'center', py: 1, borderTop: i ? 1 : 0, borderColor: 'divider' }}>
                <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}>
                  <Combo label={`Product ${i + 1}`} value={l.product_id} options={products.options} loading={products.loading} disabled={!editable} onChange={(v) => setLine(l.key, { product_id: v, purchase_order_line_id: null })} />
                </Box>
                <TextField size="small" label="BOL" value={l.bol_number} disabled={!editable} onChange={(e) => setLine(l.key, { bol_number: e.target.value })} slotProps={{ htmlInput: { maxLength: 60 } }} />
                <TextField size="small" label="Quantity" type="number" value={l.quantity} disabled={!editable} onChange={(e) => setLine(l.key, { quantity: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                <TextField size="small" label="Unit price" type="number" value={l.unit_price} disabled={!editable} onChange={(e) => setLine(l.key, { unit_price: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                <Typography variant="body2" sx={{ textAlign: 'right' }}>
                  {money(lineAmount(l.quantity, l.unit_price))}
                </Typography>
                {editable ? (
                  <IconButton aria-label={`Remove line ${i + 1}`} onClick={() => set({ lines: form.lines.filter((x) => x.key !== l.key) })}>
                    <DeleteOutlined />
                  </IconButton>
                ) : (
                  <span />
                )}
              </Box>
            ))}
          </Section>

          <Section
            title="Taxes and fees"
            action={
              editable && (
                <Button size="small" startIcon={<Add />} onClick={() => set({ charges: [...form.charges, { key: nextKey(), kind: 'tax', name: '', amount: '' }] })}>
                  Add tax or fee
                </Button>
              )
            }
          >
            {form.charges.length === 0 && <Typography variant="body2" color="text.secondary">No taxes or fees on this bill.</Typography>}
            {form.charges.map((c, i) => (
              <Box key={c.key} sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '0.8fr 1.4fr 1fr auto', md: '0.6fr 2fr 1fr auto' }, alignItems: 'center', py: 0.5 }}>
                <TextField size="small" select label="Kind" value={c.kind} disabled={!editable} onChange={(e) => setCharge(c.key, { kind: e.target.value === 'fee' ? 'fee' : 'tax' })}>
                  <MenuItem value="tax">Tax</MenuItem>
                  <MenuItem value="fee">Fee</MenuItem>
                </TextField>
                <TextField size="small" label={`Name ${i + 1}`} value={c.name} disabled={!editable} onChange={(e) => setCharge(c.key, { name: e.target.value })} />
                <TextField size="small" label="Amount" type="number" value={c.amount} disabled={!editable} onChange={(e) => setCharge(c.key, { amount: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                {editable ? (
                  <IconButton aria-label={`Remove charge ${i + 1}`} onClick={() => set({ charges: form.charges.filter((x) => x.key !== c.key) })}>
                    <DeleteOutlined />
                  </IconButton>
                ) : (
                  <span />
                )}
              </Box>
            ))}
          </Section>
          {editable && (
            <Box sx={{ display: 'flex', gap: 1, mb: 2, alignItems: 'center' }}>
              <Button variant="contained" onClick={save} disabled={creating.isLoading || updating.isLoading || !(bill ? perms.change : perms.add)}>
                {bill ? 'Save changes' : 'Create bill'}
              </Button>
              {(creating.isLoading || updating.isLoading) && <CircularProgress size={24} aria-label="Saving" />}
              <Typography variant="body2" color="text.secondary">
                Total as typed: {money(typedTotal)}
              </Typography>
            </Box>
          )}
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          {bill ? (
            <>
              <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
                <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
                  Totals
                </Typography>
                <Row label="Lines" value={money(bill.subtotal)} />
                <Row label="Taxes" value={money(bill.tax_total)} />
                <Row label="Freight" value={money(bill.freight)} />
                <Divider sx={{ my: 0.5 }} />
                <Row label="Total" value={money(bill.total)} strong />
                <Row label="Due" value={bill.due_date} />
                {bill.payment_term && <Row label="Term" value={bill.payment_term.name} />}
              </Paper>
              <Section title="Job log">
                <BillLogs billId={bill.id} />
              </Section>
              <Section title="Timeline">
                <Timeline events={bill.timeline} />
              </Section>
            </>
          ) : (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="body2" color="text.secondary">
                The three-way match, totals and the timeline appear once the bill is created.
              </Typography>
            </Paper>
          )}
        </Grid>
      </Grid>
    </PageBody>
  );
}
