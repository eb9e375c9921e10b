import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { formPageGate, stampOf, useRouteId, useStampedForm } from '@/components/common/formPage';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { StatusChip, type Option } from '@/components/resource';
import { useCustomerOptions, useProductOptions, useShipToOptions } from '@/lib/api/lookups';
import { LinePrice } from './LinePrice';
import { OrderActions } from './OrderActions';
import { OrderSide } from './OrderSide';
import {
  ORDER_STATUSES,
  errorText,
  money,
  useCreateOrderMutation,
  useFeesQuery,
  useOrderQuery,
  useTanksQuery,
  useUpdateOrderMutation,
  type Order,
  type OrderCreate,
  type OrderUpdate,
} from './salesApi';

interface LineForm {
  key: string;
  id?: number;
  product_id: number | null;
  quantity: string;
  unit_price_override: string;
  customer_asset_id: number | null;
  po_number: string;
}
interface FeeForm {
  key: string;
  id?: number;
  fee_id: number | null;
  quantity: string;
}
interface OrderForm {
  customer_id: number | null;
  ship_to_id: number | null;
  po_number: string;
  planned_date: string;
  planned_time_from: string;
  planned_time_to: string;
  instructions: string;
  lines: LineForm[];
  fees: FeeForm[];
}

let seq = 0;
const nextKey = () => `k${++seq}`;
const today = () => new Date().toISOString().slice(0, 10);
const emptyLine = (): LineForm => ({ key: nextKey(), product_id: null, quantity: '', unit_price_override: '', customer_asset_id: null, po_number: '' });

function toForm(o: Order | undefined): OrderForm {
  if (!o) return { customer_id: null, ship_to_id: null, po_number: '', planned_date: today(), planned_time_from: '', planned_time_to: '', instructions: '', lines: [emptyLine()], fees: [] };
  return {
    customer_id: o.customer_id,
    ship_to_id: o.ship_to_id,
    po_number: o.po_number,
    planned_date: o.planned_date,
    planned_time_from: (o.planned_time_from ?? '').slice(0, 5),
    planned_time_to: (o.planned_time_to ?? '').slice(0, 5),
    instructions: o.instructions,
    lines: o.line_items.map((l) => ({ key: `l${l.id}`, id: l.id, product_id: l.product_id, quantity: String(Number(l.quantity)), unit_price_override: l.unit_price_override ? String(Number(l.unit_price_override)) : '', customer_asset_id: l.customer_asset_id, po_number: l.po_number })),
    fees: o.fees.map((f) => ({ key: `f${f.id}`, id: f.id, fee_id: f.fee_id, quantity: f.quantity ? String(Number(f.quantity)) : '' })),
  };
}

function toBody(f: OrderForm): OrderCreate {
  return {
    customer_id: f.customer_id ?? 0,
    ship_to_id: f.ship_to_id,
    po_number: f.po_number,
    planned_date: f.planned_date || null,
    planned_time_from: f.planned_time_from || null,
    planned_time_to: f.planned_time_to || null,
    instructions: f.instructions,
    line_items: f.lines
      .filter((l) => l.product_id)
      .map((l) => ({ id: l.id ?? null, product_id: l.product_id ?? 0, quantity: l.quantity, unit_price_override: l.unit_price_override || null, customer_asset_id: l.customer_asset_id, po_number: l.po_number })),
    fees: f.fees.filter((x) => x.fee_id).map((x) => ({ id: x.id ?? null, fee_id: x.fee_id ?? 0, quantity: x.quantity || null })),
  };
}

// A chosen name longer than this may not fit a phone's input: it is also written out under it.
const PHONE_INPUT_CHARS = 28;

function Combo({ label, value, options, onChange, disabled, loading, required, wholeName }: { label: string; value: number | null; options: Option[]; onChange: (v: number | null) => void; disabled?: boolean; loading?: boolean; required?: boolean; wholeName?: boolean }) {
  const chosen = options.find((o) => o.value === value) ?? null;
  const spelled = wholeName && chosen && chosen.label.length > PHONE_INPUT_CHARS ? chosen.label : undefined;
  return (
    <Autocomplete<Option, false>
      size="small"
      options={options}
      loading={loading}
      disabled={disabled}
      value={chosen}
      onChange={(_, next) => onChange(next ? Number(next.value) : null)}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          helperText={spelled}
          slotProps={{ ...params.slotProps, formHelperText: { sx: { display: { xs: 'block', sm: 'none' }, mx: 0, color: 'text.primary' }, 'data-testid': 'whole-name' } as object }}
        />
      )}
    />
  );
}

export default function SalesOrderFormPage() {
  const { rawId, id: orderId } = useRouteId();
  const navigate = useNavigate();
  const q = useOrderQuery(orderId ?? 0, { skip: !orderId });
  const order = orderId ? q.data : undefined;
  const { form, setForm, loaded } = useStampedForm<OrderForm>(() => toForm(undefined), order ? { stamp: stampOf(order), form: () => toForm(order) } : null);
  const [error, setError] = useState<string | null>(null);
  const customers = useCustomerOptions();
  const products = useProductOptions();
  const shipTos = useShipToOptions(form.customer_id);
  const fees = useFeesQuery();
  const tanks = useTanksQuery({ customerId: form.customer_id ?? 0, shipToId: form.ship_to_id }, { skip: !form.customer_id });
  const [create, creating] = useCreateOrderMutation();
  const [update, updating] = useUpdateOrderMutation();
  const editable = !order || order.status === 'draft';
  const headerEditable = !order || ['draft', 'verified'].includes(order.status);
  const set = (patch: Partial<OrderForm>) => setForm((f) => ({ ...f, ...patch }));
  const setLine = (key: string, patch: Partial<LineForm>) => setForm((f) => ({ ...f, lines: f.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));
  const setFee = (key: string, patch: Partial<FeeForm>) => setForm((f) => ({ ...f, fees: f.fees.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));
  const tankOptions: Option[] = (tanks.data ?? []).map((t) => ({ value: t.id, label: t.asset_name }));
  const feeOptions: Option[] = (fees.data ?? []).map((x) => ({ value: x.id, label: x.fee_code ? `${x.name} (${x.fee_code})` : x.name }));

  const save = async () => {
    setError(null);
    if (!form.customer_id) return setError('Choose a customer.');
    const bad = form.lines.find((l) => l.product_id && !(Number(l.quantity) > 0));
    if (bad) return setError('Every product line needs a quantity above 0.');
    try {
      if (order) {
        const body = toBody(form);
        const header = { po_number: body.po_number, instructions: body.instructions };
        const window = { planned_date: body.planned_date, planned_time_from: body.planned_time_from, planned_time_to: body.planned_time_to };
        const payload: OrderUpdate = editable ? body : order.status === 'verified' ? { ...header, ...window } : header;
        const saved = await update({ id: order.id, body: payload }).unwrap();
        loaded(stampOf(saved), toForm(saved));
        toast.success('Sales order saved');
      } else {
        const saved = await create(toBody(form)).unwrap();
        toast.success(`Sales order ${saved.number} created`);
        navigate(`/sales-order/${saved.id}`, { replace: true });
      }
    } catch (e) {
      setError(errorText(e));
    }
  };

  const gate = formPageGate({ rawId, id: orderId, query: q, loadingLabel: 'Loading the order', notFound: 'Sales order not found', errorText });
  if (gate) return gate;

  return (
    <PageBody>
      <PageHeader
        title={order ? `Sales order ${order.number}` : 'New sales order'}
        subtitle={order ? <StatusChip value={order.status} styles={ORDER_STATUSES} /> : 'A draft: prices follow the pricing engine until the order is verified.'}
        actions={
          <Button startIcon={<ArrowBack />} onClick={() => navigate('/sales-order')}>
            Orders
          </Button>
        }
      />
      {order && <OrderActions order={order} />}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Typography component="h2" variant="h6" sx={{ mb: 1.5 }}>
              Customer and delivery
            </Typography>
            <Grid container spacing={1.5}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <Combo label="Customer" required value={form.customer_id} options={customers.options} loading={customers.loading} disabled={!editable} onChange={(v) => set({ customer_id: v, ship_to_id: null, lines: form.lines.map((l) => ({ ...l, customer_asset_id: null })) })} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <Combo label="Ship-to" value={form.ship_to_id} options={shipTos.options} loading={shipTos.loading} disabled={!editable || !form.customer_id} onChange={(v) => set({ ship_to_id: v })} />
              </Grid>
              <Grid size={{ xs: 6, sm: 3 }}>
                <TextField size="small" fullWidth type="date" label="Planned date" value={form.planned_date} disabled={!headerEditable} onChange={(e) => set({ planned_date: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
              </Grid>
              <Grid size={{ xs: 3, sm: 2 }}>
                <TextField size="small" fullWidth type="time" label="From" value={form.planned_time_from} disabled={!headerEditable} onChange={(e) => set({ planned_time_from: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
              </Grid>
              <Grid size={{ xs: 3, sm: 2 }}>
                <TextField size="small" fullWidth type="time" label="To" value={form.planned_time_to} disabled={!headerEditable} onChange={(e) => set({ planned_time_to: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
              </Grid>
              <Grid size={{ xs: 12, sm: 5 }}>
                <TextField size="small" fullWidth label="PO number" value={form.po_number} onChange={(e) => set({ po_number: e.target.value })} slotProps={{ htmlInput: { maxLength: 60 } }} />
              </Grid>
              <Grid size={12}>
                <TextField size="small" fullWidth multiline minRows={1} label="Delivery instructions" value={form.instructions} onChange={(e) => set({ instructions: e.target.value })} />
              </Grid>
            </Grid>
          </Paper>

          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
              <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
                Products
              </Typography>
              {editable && (
                <Button size="small" startIcon={<Add />} onClick={() => set({ lines: [...form.lines, emptyLine()] })}>
                  Add product
                </Button>
              )}
            </Box>
            {!editable && <Alert severity="info" sx={{ mb: 1 }}>Prices were fixed when the order was verified. Move it back to draft to change products.</Alert>}
            {form.lines.map((l, i) => {
              const saved = order?.line_items.find((x) => x.id === l.id);
              return (
                <Box key={l.key} data-testid="order-line" sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'minmax(0, 1fr) minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1.3fr) minmax(0, 1.1fr) minmax(150px, 1.2fr) auto' }, alignItems: 'center', py: 1, borderTop: i ? 1 : 0, borderColor: 'divider' }}>
                  {/* The product has a row of its own: its whole name is readable at every width (issue 23). */}
                  <Box sx={{ gridColumn: '1 / -1' }}>
                    <Combo wholeName label={`Product ${i + 1}`} value={l.product_id} options={products.options} loading={products.loading} disabled={!editable} onChange={(v) => setLine(l.key, { product_id: v })} />
                  </Box>
                  <TextField size="small" label="Quantity" type="number" value={l.quantity} disabled={!editable} onChange={(e) => setLine(l.key, { quantity: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                  <TextField size="small" select label="Tank" value={l.customer_asset_id ?? ''} disabled={!editable || !form.customer_id} onChange={(e) => setLine(l.key, { customer_asset_id: e.target.value === '' ? null : Number(e.target.value) })}>
                    <MenuItem value="">
                      <em>None</em>
                    </MenuItem>
                    {tankOptions.map((t) => (
                      <MenuItem key={t.value} value={t.value}>
                        {t.label}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TextField size="small" label="Price override" type="number" value={l.unit_price_override} disabled={!editable} onChange={(e) => setLine(l.key, { unit_price_override: e.target.value })} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                  <LinePrice customerId={form.customer_id} shipToId={form.ship_to_id} productId={l.product_id} quantity={l.quantity} override={l.unit_price_override} plannedDate={form.planned_date} saved={saved} />
                  {editable ? (
                    <IconButton aria-label={`Remove product ${i + 1}`} onClick={() => set({ lines: form.lines.filter((x) => x.key !== l.key) })}>
                      <DeleteOutlined />
                    </IconButton>
                  ) : (
                    <Typography variant="caption" color="text.secondary">
                      {saved?.delivered_quantity != null ? `Delivered ${Number(saved.delivered_quantity)}` : ''}
                    </Typography>
                  )}
                </Box>
              );
            })}
          </Paper>

          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
              <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
                Fees
              </Typography>
              {editable && (
                <Button size="small" startIcon={<Add />} onClick={() => set({ fees: [...form.fees, { key: nextKey(), fee_id: null, quantity: '' }] })}>
                  Add fee
                </Button>
              )}
            </Box>
            {form.fees.length === 0 && <Typography variant="body2" color="text.secondary">No fees.</Typography>}
            {form.fees.map((f, i) => {
              const saved = order?.fees.find((x) => x.id === f.id);
              return (
                <Box key={f.key} sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 0.6fr auto', md: '2fr 0.8fr 1fr auto' }, alignItems: 'center', py: 0.5 }}>
                  <Combo label={`Fee ${i + 1}`} value={f.fee_id} options={feeOptions} loading={fees.isLoading} disabled={!editable} onChange={(v) => setFee(f.key, { fee_id: v })} />
                  <TextField size="small" label="Quantity" type="number" value={f.quantity} disabled={!editable} onChange={(e) => setFee(f.key, { quantity: e.target.value })} placeholder="default" slotProps={{ inputLabel: { shrink: true } }} />
                  <Typography variant="body2" sx={{ textAlign: 'right', display: { xs: 'none', md: 'block' } }}>
                    {saved ? money(saved.subtotal) : ''}
                  </Typography>
                  {editable ? (
                    <IconButton aria-label={`Remove fee ${i + 1}`} onClick={() => set({ fees: form.fees.filter((x) => x.key !== f.key) })}>
                      <DeleteOutlined />
                    </IconButton>
                  ) : (
                    <span />
                  )}
                </Box>
              );
            })}
          </Paper>
          <Box sx={{ display: 'flex', gap: 1, mb: 2 }}>
            <Button variant="contained" onClick={save} disabled={creating.isLoading || updating.isLoading || (!!order && !['draft', 'verified', 'assigned', 'in_delivery', 'delivered'].includes(order.status))}>
              {order ? 'Save changes' : 'Create draft order'}
            </Button>
            {(creating.isLoading || updating.isLoading) && <CircularProgress size={24} aria-label="Saving" />}
          </Box>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          {order ? (
            <OrderSide order={order} />
          ) : (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="body2" color="text.secondary">
                Totals, taxes, notes and the timeline appear once the draft is created.
              </Typography>
              <Divider sx={{ my: 1 }} />
            </Paper>
          )}
        </Grid>
      </Grid>
    </PageBody>
  );
}
