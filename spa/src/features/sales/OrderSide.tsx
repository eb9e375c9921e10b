import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorText, money, statusLabel, useAddNoteMutation, useDeleteNoteMutation, useTaxesQuery, type Order } from './salesApi';

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', py: 0.25 }}>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400 }}>{label}</Typography>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400, fontVariantNumeric: 'tabular-nums' }}>{value}</Typography>
    </Box>
  );
}

/** Totals with the tax summary, the assignment, notes and the timeline of an order. */
export function OrderSide({ order }: { order: Order }) {
  const taxes = useTaxesQuery(order.id);
  const [addNote, adding] = useAddNoteMutation();
  const [deleteNote] = useDeleteNoteMutation();
  const [note, setNote] = useState('');
  const submitNote = async () => {
    if (!note.trim()) return;
    try {
      await addNote({ orderId: order.id, body: note }).unwrap();
      setNote('');
    } catch (e) {
      toast.error(errorText(e));
    }
  };
  const taxItems = (taxes.data?.taxable_items ?? []) as { product_name?: string; taxes?: { name: string; amount: string }[] }[];
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>Totals</Typography>
        <Row label="Products" value={money(order.subtotal)} />
        <Row label="Fees" value={money(order.fee_total)} />
        <Row label="Taxes" value={money(order.tax_total)} />
        <Divider sx={{ my: 0.5 }} />
        <Row label="Total" value={money(order.total)} strong />
        {taxItems.length > 0 && (
          <Box sx={{ mt: 1 }}>
            {taxItems.map((item, i) => (
              <Typography key={i} variant="caption" component="div" color="text.secondary">
                {item.product_name ?? 'Order'}: {(item.taxes ?? []).map((t) => `${t.name} ${money(t.amount)}`).join(', ')}
              </Typography>
            ))}
          </Box>
        )}
        {(order.driver || order.truck) && (
          <>
            <Divider sx={{ my: 1 }} />
            <Typography variant="body2">
              {order.driver?.name} · {order.truck?.asset_number}
              {order.trailer ? ` + ${order.trailer.asset_number}` : ''} · stop {order.stop_sequence ?? '—'}
            </Typography>
          </>
        )}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>Notes</Typography>
        <Box sx={{ display: 'flex', gap: 1, mb: 1 }}>
          <TextField size="small" fullWidth label="Add a note" value={note} onChange={(e) => setNote(e.target.value)} />
          <Button onClick={submitNote} disabled={adding.isLoading || !note.trim()}>Add</Button>
        </Box>
        {order.notes.length === 0 && <Typography variant="body2" color="text.secondary">No notes yet.</Typography>}
        {order.notes.map((n) => (
          <Box key={n.id} sx={{ display: 'flex', alignItems: 'flex-start', py: 0.5 }}>
            <Box sx={{ flex: 1 }}>
              <Typography variant="body2">{n.body}</Typography>
              <Typography variant="caption" color="text.secondary">
                {n.created_by?.name ?? 'System'} · {new Date(n.created_at).toLocaleString()}
              </Typography>
            </Box>
            <IconButton size="small" aria-label="Delete note" onClick={() => deleteNote({ id: n.id, orderId: order.id }).unwrap().catch((e: unknown) => toast.error(errorText(e)))}>
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Box>
        ))}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>Timeline</Typography>
        <Typography variant="caption" component="div" color="text.secondary">
          Created {new Date(order.created_at).toLocaleString()}
          {order.created_by ? ` by ${order.created_by.name}` : ''}
        </Typography>
        {order.timeline.map((e) => (
          <Box key={e.id} sx={{ borderLeft: 2, borderColor: 'primary.light', pl: 1, my: 1 }}>
            <Typography variant="body2">
              {e.from_status === e.to_status ? `${e.action.replace(/_/g, ' ')} (${statusLabel(e.to_status).toLowerCase()})` : `${statusLabel(e.from_status)} → ${statusLabel(e.to_status)}`}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {e.by_name || 'System'} · {new Date(e.at).toLocaleString()}
              {'credit_override' in e.details ? ' · credit override' : ''}
            </Typography>
          </Box>
        ))}
      </Paper>
    </>
  );
}
