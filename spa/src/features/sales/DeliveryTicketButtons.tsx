import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { isApiError } from '@/lib/api/errors';
import { apiRequest } from '@/lib/api/http';

/** Spec section 8: the message of a failed delivery ticket generation. */
export const generationFailed = (code: number | string) => `Server responded with status: ${code}`;

interface TicketRef {
  id: number;
  number: string;
}

/** GET /delivery-ticket/generate: the order's tickets (made or refreshed). Throws the spec's message. */
export async function generateDeliveryTickets(salesOrderId: number, splitByPo: boolean): Promise<TicketRef[]> {
  try {
    const res = await apiRequest<{ data: TicketRef[] }>('/delivery-ticket/generate', {
      params: { sales_order_id: salesOrderId, split_by_po: splitByPo },
    });
    return res.message.data;
  } catch (e) {
    const status = isApiError(e) && typeof e.status === 'number' ? e.status : 0;
    throw new Error(generationFailed(status));
  }
}

const ENTRY_STATUSES = ['assigned', 'in_delivery'];

/**
 * The sales order's delivery ticket actions: open its ticket (generated or refreshed first, one or
 * one per PO) and, while the order is on a truck, the office entry of a paper ticket.
 */
export function DeliveryTicketButtons({ order }: { order: { id: number; status: string } }) {
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const [tickets, setTickets] = useState<TicketRef[]>([]);
  if (order.status === 'draft' || order.status === 'cancelled') return null;

  const generate = async (split: boolean, el: HTMLElement) => {
    setBusy(true);
    try {
      const made = await generateDeliveryTickets(order.id, split);
      if (made.length === 1) navigate(`/delivery-ticket/${made[0].id}`);
      else {
        setTickets(made);
        setAnchor(el);
      }
    } catch (e) {
      toast.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outlined" disabled={busy} onClick={(e) => void generate(false, e.currentTarget)}>
        Delivery ticket
      </Button>
      <Button variant="outlined" disabled={busy} onClick={(e) => void generate(true, e.currentTarget)}>
        Tickets by PO
      </Button>
      {ENTRY_STATUSES.includes(order.status) && (
        <Button variant="outlined" onClick={() => navigate(`/delivery-order-entry/${order.id}`)}>
          Enter delivery
        </Button>
      )}
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {tickets.map((t) => (
          <MenuItem key={t.id} onClick={() => navigate(`/delivery-ticket/${t.id}`)}>
            {t.number}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
