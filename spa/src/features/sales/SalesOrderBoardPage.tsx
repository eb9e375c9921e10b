import Fullscreen from '@mui/icons-material/Fullscreen';
import FullscreenExit from '@mui/icons-material/FullscreenExit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DndContext, PointerSensor, KeyboardSensor, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { SALES_ORDER_FULLSCREEN_EVENT } from '@/components/shell/layout';
import { AssignDialog, CreditDialog } from './OrderActions';
import { creditRefusal, errorText, money, statusLabel, useBoardQuery, useDeliverMutation, useSetStatusMutation, useStartDeliveryMutation, type OrderRow } from './salesApi';

// The status call's value for each move the board performs directly.
const STATUS_CALL: Record<string, string> = { verify: 'verified', unassign: 'verified', reopen: 'draft', complete: 'completed', archive: 'archive', cancel: 'cancelled' };

function setFullscreen(isFullscreen: boolean) {
  window.dispatchEvent(new CustomEvent(SALES_ORDER_FULLSCREEN_EVENT, { detail: { isFullscreen } }));
}

function Card({ order, onOpen }: { order: OrderRow; onOpen: () => void }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: order.id, data: { order } });
  return (
    <Paper
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      data-testid={`board-card-${order.number}`}
      variant="outlined"
      onDoubleClick={onOpen}
      sx={{ p: 1.25, mb: 1, cursor: 'grab', opacity: isDragging ? 0.6 : 1, transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined, zIndex: isDragging ? 10 : 'auto', position: 'relative', touchAction: 'none' }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', columnGap: 1 }}>
        <Typography variant="subtitle2">{order.number}</Typography>
        <Typography variant="caption">{order.planned_date}</Typography>
      </Box>
      <Typography variant="body2" noWrap>{order.customer.name}</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', columnGap: 1, mt: 0.5 }}>
        <Typography variant="caption" color="text.secondary" noWrap sx={{ minWidth: 0 }}>
          {[order.driver?.name, order.truck?.asset_number].filter(Boolean).join(' · ') || order.ship_to?.name || ''}
        </Typography>
        <Typography variant="caption">{money(order.total)}</Typography>
      </Box>
      <Button size="small" sx={{ mt: 0.5, p: 0, minWidth: 0 }} onClick={onOpen} onPointerDown={(e) => e.stopPropagation()}>
        Open
      </Button>
    </Paper>
  );
}

function Column({ status, label, total, cards, active, legal, onOpen }: { status: string; label: string; total: number; cards: OrderRow[]; active: OrderRow | null; legal: boolean; onOpen: (o: OrderRow) => void }) {
  const { setNodeRef, isOver } = useDroppable({ id: status });
  const highlight = active && active.status !== status;
  return (
    <Paper
      ref={setNodeRef}
      data-testid={`board-column-${status}`}
      variant="outlined"
      sx={{
        p: 1,
        // Desktop: the columns share the width (every one visible at 1440 px); narrower, they scroll (below).
        minWidth: { xs: 220, md: 140 },
        flex: { xs: '0 0 220px', md: '1 1 0' },
        bgcolor: isOver ? (legal ? 'success.50' : 'error.50') : 'grey.50',
        borderColor: highlight ? (legal ? 'success.main' : 'error.light') : 'divider',
        borderStyle: highlight && legal ? 'dashed' : 'solid',
        maxHeight: '100%',
        overflowY: 'auto',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700 }}>{label}</Typography>
        <Chip size="small" label={total} />
      </Box>
      {cards.map((o) => (
        <Card key={o.id} order={o} onOpen={() => onOpen(o)} />
      ))}
      {cards.length === 0 && <Typography variant="caption" color="text.secondary">No orders</Typography>}
    </Paper>
  );
}

export default function SalesOrderBoardPage() {
  const navigate = useNavigate();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [search, setSearch] = useState('');
  const [full, setFull] = useState(false);
  const [active, setActive] = useState<OrderRow | null>(null);
  const [assigning, setAssigning] = useState<OrderRow | null>(null);
  const [credit, setCredit] = useState<{ order: OrderRow; refusal: { canOverride: boolean; message: string } } | null>(null);
  const q = useBoardQuery({ planned_date_start: start || undefined, planned_date_end: end || undefined, search: search || undefined });
  const [setStatus] = useSetStatusMutation();
  const [startDelivery] = useStartDeliveryMutation();
  const [deliver] = useDeliverMutation();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor));

  useEffect(() => () => setFullscreen(false), []);
  const toggleFull = () => {
    setFullscreen(!full);
    setFull(!full);
  };

  const onDragEnd = async (e: DragEndEvent) => {
    setActive(null);
    const order = (e.active.data.current as { order: OrderRow } | undefined)?.order;
    const target = e.over?.id as string | undefined;
    if (!order || !target || target === order.status) return;
    const move = order.allowed_actions.find((m) => m.to === target);
    if (!move) {
      const allowed = order.allowed_actions.map((m) => statusLabel(m.to)).join(', ') || 'none';
      toast.error(`${order.number} cannot move from ${statusLabel(order.status)} to ${statusLabel(target)}. Allowed: ${allowed}.`);
      return;
    }
    try {
      if (move.action in STATUS_CALL) await setStatus({ id: order.id, status: STATUS_CALL[move.action] }).unwrap();
      else if (move.action === 'assign') return setAssigning(order);
      else if (move.action === 'start_delivery') await startDelivery({ id: order.id }).unwrap();
      else if (move.action === 'deliver') await deliver({ id: order.id, lines: [] }).unwrap();
      toast.success(`${order.number}: ${statusLabel(order.status)} → ${statusLabel(move.to)}`);
    } catch (err) {
      // A verification refused on credit: the same dialog as the order page (reasons, override with a reason).
      const refusal = creditRefusal(err);
      if (refusal) setCredit({ order, refusal });
      else toast.error(errorText(err));
    }
  };

  const legalFor = (status: string) => !!active && active.allowed_actions.some((m) => m.to === status);

  return (
    <Box sx={full ? { position: 'fixed', inset: 0, zIndex: 1200, bgcolor: 'background.default', overflow: 'auto' } : undefined}>
      <PageBody>
        <PageHeader
          title="Sales Order Board"
          subtitle="Drag a card to the next status; only the moves the workflow allows are accepted."
          actions={
            <Button startIcon={full ? <FullscreenExit /> : <Fullscreen />} onClick={toggleFull} aria-pressed={full}>
              {full ? 'Exit full screen' : 'Full screen'}
            </Button>
          }
        />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
          <TextField size="small" label="Search" sx={{ width: { xs: '100%', sm: 240 } }} value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Order, PO, customer" />
          <TextField size="small" type="date" label="From" sx={{ width: { xs: 'calc(50% - 4px)', sm: 160 } }} value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField size="small" type="date" label="To" sx={{ width: { xs: 'calc(50% - 4px)', sm: 160 } }} value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          {q.isFetching && <CircularProgress size={24} aria-label="Loading the board" />}
        </Box>
        {q.error && <Alert severity="error" action={<Button onClick={() => q.refetch()}>Retry</Button>}>{errorText(q.error)}</Alert>}
        <DndContext sensors={sensors} onDragStart={(e) => setActive((e.active.data.current as { order: OrderRow }).order)} onDragCancel={() => setActive(null)} onDragEnd={onDragEnd}>
          <Box
            data-testid="board-columns"
            tabIndex={0}
            aria-label="Order board columns"
            sx={{
              display: 'flex',
              gap: 1,
              overflowX: 'auto',
              pb: 1,
              mb: 1,
              alignItems: 'flex-start',
              minHeight: 400,
              // A scroll bar that stays visible when the columns do not fit (phones, narrow windows).
              scrollbarWidth: 'auto',
              scrollbarColor: (t) => `${t.palette.grey[500]} ${t.palette.grey[200]}`,
              '&::-webkit-scrollbar': { height: 10 },
              '&::-webkit-scrollbar-thumb': { bgcolor: 'grey.500', borderRadius: 5 },
              '&::-webkit-scrollbar-track': { bgcolor: 'grey.200' },
            }}
          >
            {(q.data?.columns ?? []).map((c) => (
              <Column key={c.status} status={c.status} label={c.label} total={c.total} cards={c.cards} active={active} legal={legalFor(c.status)} onOpen={(o) => navigate(`/sales-order/${o.id}`)} />
            ))}
          </Box>
        </DndContext>
      </PageBody>
      {assigning && <AssignDialog order={assigning} onClose={() => setAssigning(null)} />}
      {credit && <CreditDialog order={credit.order} refusal={credit.refusal} onClose={() => setCredit(null)} />}
    </Box>
  );
}
