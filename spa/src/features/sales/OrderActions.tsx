import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { TicketEmailAction } from './TicketEmailAction';
import { DeliveryTicketButtons } from './DeliveryTicketButtons';
import { useDriverOptions, usePermissions } from '@/lib/api/lookups';
import {
  MSG_INVOICE,
  creditRefusal,
  errorText,
  invoiceToast,
  useInvoiceOrderMutation,
  statusLabel,
  useAssignMutation,
  useDeliverMutation,
  useDeliverProductsMutation,
  useDispatchDayQuery,
  useSetStatusMutation,
  useStartDeliveryMutation,
  useTrailersQuery,
  useUnassignMutation,
  type Move,
  type Order,
  type OrderRow,
} from './salesApi';

type Dialogs = 'assign' | 'deliver_products' | 'deliver' | 'credit' | null;
const STATUS_OF: Record<string, string> = { verify: 'verified', reopen: 'draft', complete: 'completed', archive: 'archive', cancel: 'cancelled' };

/** The moves the server allows now (order.allowed_actions), as buttons; dialogs for those that need input. */
export function OrderActions({ order }: { order: Order }) {
  const [setStatus, statusState] = useSetStatusMutation();
  const [unassign] = useUnassignMutation();
  const [start] = useStartDeliveryMutation();
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [credit, setCredit] = useState<{ canOverride: boolean; message: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [invoiceOrder, invoiceState] = useInvoiceOrderMutation();
  const invoicePerms = usePermissions('invoice');
  const navigate = useNavigate();
  const canInvoice = (order.status === 'delivered' || order.status === 'completed') && invoicePerms.add;

  const invoice = async () => {
    try {
      const r = await invoiceOrder(order.id).unwrap();
      toast.success(invoiceToast(r));
      navigate(`/invoice/${r.id}`);
    } catch (e) {
      toast.error(errorText(e) || MSG_INVOICE);
    }
  };

  const run = async (m: Move) => {
    setError(null);
    try {
      if (m.action in STATUS_OF) {
        const o = await setStatus({ id: order.id, status: STATUS_OF[m.action] }).unwrap();
        toast.success(`${o.number} is now ${statusLabel(o.status).toLowerCase()}`);
      } else if (m.action === 'unassign') {
        await unassign(order.id).unwrap();
        toast.success(`${order.number} is back in the unassigned orders`);
      } else if (m.action === 'start_delivery') {
        await start({ id: order.id }).unwrap();
        toast.success('Delivery started');
      } else {
        setDialog(m.action as Dialogs);
      }
    } catch (e) {
      const refusal = creditRefusal(e);
      if (refusal) {
        setCredit(refusal);
        setDialog('credit');
      } else {
        setError(errorText(e));
      }
    }
  };

  return (
    <Box sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} role="group" aria-label="Actions">
        {order.allowed_actions.map((m) => (
          <Button key={m.action} variant={m.action === 'cancel' ? 'outlined' : 'contained'} color={m.action === 'cancel' ? 'error' : 'primary'} disabled={statusState.isLoading} onClick={() => run(m)}>
            {m.label}
          </Button>
        ))}
        {canInvoice && (
          <Button variant="contained" color="secondary" onClick={invoice} disabled={invoiceState.isLoading}>
            Invoice
          </Button>
        )}
        {(order.status === 'delivered' || order.status === 'completed') && <TicketEmailAction salesOrderId={order.id} orderNumber={order.number} />}
        <DeliveryTicketButtons order={order} />
        {order.allowed_actions.length === 0 && !canInvoice && <Typography color="text.secondary">No further moves: the order is {statusLabel(order.status).toLowerCase()}.</Typography>}
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }} onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {dialog === 'assign' && <AssignDialog order={order} onClose={() => setDialog(null)} />}
      {(dialog === 'deliver_products' || dialog === 'deliver') && <DeliverDialog order={order} final={dialog === 'deliver'} onClose={() => setDialog(null)} />}
      {dialog === 'credit' && credit && <CreditDialog order={order} refusal={credit} onClose={() => setDialog(null)} />}
    </Box>
  );
}

/** The refused verification's reasons, and (for a user allowed to) the override with its reason. The order
 * page and the order board both open it when a move to Verified answers the credit refusal. */
export function CreditDialog({ order, refusal, onClose }: { order: Pick<OrderRow, 'id' | 'number'>; refusal: { canOverride: boolean; message: string }; onClose: () => void }) {
  const [setStatus, state] = useSetStatusMutation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const override = async () => {
    try {
      await setStatus({ id: order.id, status: 'verified', override_credit: true, reason }).unwrap();
      toast.success(`${order.number} verified with a credit override`);
      onClose();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>Credit check failed</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {refusal.message}
        </Alert>
        {refusal.canOverride ? (
          <TextField fullWidth label="Reason for the override" value={reason} onChange={(e) => setReason(e.target.value)} multiline minRows={2} />
        ) : (
          <Typography variant="body2">Ask a user allowed to override credit control to verify this order.</Typography>
        )}
        {error && <Alert severity="error" sx={{ mt: 1 }}>{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {refusal.canOverride && (
          <Button variant="contained" color="warning" onClick={override} disabled={state.isLoading}>
            Verify with override
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

export function AssignDialog({ order, onClose, truckId: presetTruck }: { order: OrderRow; onClose: () => void; truckId?: number }) {
  const drivers = useDriverOptions();
  const day = useDispatchDayQuery({ date: order.planned_date });
  const trailers = useTrailersQuery();
  const [assign, state] = useAssignMutation();
  const [driverId, setDriverId] = useState<number | ''>(order.driver_id ?? '');
  const [truckId, setTruckId] = useState<number | ''>(presetTruck ?? order.truck_id ?? '');
  const [trailerId, setTrailerId] = useState<number | ''>(order.trailer_id ?? '');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!driverId || !truckId) return setError('Choose a driver and a truck.');
    try {
      await assign({ id: order.id, body: { driver_id: driverId, truck_id: truckId, trailer_id: trailerId || null } }).unwrap();
      toast.success(`${order.number} assigned`);
      onClose();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Assign {order.number}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <TextField select label="Driver" value={driverId} onChange={(e) => setDriverId(Number(e.target.value))}>
          {drivers.options.map((d) => (
            <MenuItem key={d.value} value={d.value}>{d.label}</MenuItem>
          ))}
        </TextField>
        <TextField select label="Truck" value={truckId} onChange={(e) => setTruckId(Number(e.target.value))}>
          {(day.data?.trucks ?? []).map((t) => (
            <MenuItem key={t.truck.id} value={t.truck.id}>
              {t.truck.asset_number} {t.truck.name} · {Number(t.load_total).toLocaleString()} / {Number(t.capacity).toLocaleString()} gal
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="Trailer (optional)" value={trailerId} onChange={(e) => setTrailerId(e.target.value === '' ? '' : Number(e.target.value))}>
          <MenuItem value="">
            <em>None</em>
          </MenuItem>
          {(trailers.data ?? []).map((t) => (
            <MenuItem key={t.id} value={t.id}>{t.asset_number} {t.name}</MenuItem>
          ))}
        </TextField>
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={state.isLoading}>Assign</Button>
      </DialogActions>
    </Dialog>
  );
}

function DeliverDialog({ order, final, onClose }: { order: Order; final: boolean; onClose: () => void }) {
  const [deliverProducts, s1] = useDeliverProductsMutation();
  const [deliver, s2] = useDeliverMutation();
  const [values, setValues] = useState<Record<number, string>>(() =>
    Object.fromEntries(order.line_items.map((l) => [l.id, l.delivered_quantity != null ? String(Number(l.delivered_quantity)) : final ? '' : ''])),
  );
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const lines = Object.entries(values)
      .filter(([, v]) => v !== '')
      .map(([id, v]) => ({ line_item_id: Number(id), delivered_quantity: v }));
    try {
      if (final) await deliver({ id: order.id, lines }).unwrap();
      else await deliverProducts({ id: order.id, lines }).unwrap();
      toast.success(final ? `${order.number} delivered` : 'Delivered quantities recorded');
      onClose();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{final ? 'End the delivery' : 'Record delivered products'}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        {final && <Typography variant="body2">Every product needs a delivered quantity: enter 0 for a product that was not delivered.</Typography>}
        {order.line_items.map((l) => (
          <TextField
            key={l.id}
            type="number"
            label={`${l.product.name} (ordered ${Number(l.quantity)})`}
            value={values[l.id] ?? ''}
            onChange={(e) => setValues((v) => ({ ...v, [l.id]: e.target.value }))}
            slotProps={{ htmlInput: { min: 0, step: 'any' } }}
          />
        ))}
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={s1.isLoading || s2.isLoading}>
          {final ? 'Mark delivered' : 'Record'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
