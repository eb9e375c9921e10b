import DragIndicator from '@mui/icons-material/DragIndicator';
import LinkOff from '@mui/icons-material/LinkOff';
import RouteIcon from '@mui/icons-material/Route';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, pointerWithin, useDraggable, useDroppable, useSensor, useSensors, type CollisionDetection, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { ToolbarSelect } from '@/components/resource';
import { useRegionOptions, useYardOptions } from '@/lib/api/lookups';
import { dropTarget } from './dispatchDnd';
import { errorText, qty, useAssignMutation, useDispatchDayQuery, useReorderStopsMutation, useUnassignMutation, type Stop, type Truck } from './salesApi';

const today = () => new Date().toISOString().slice(0, 10);
const fuel = (s: Stop) => s.line_items.filter((l) => l.product.is_fuel).map((l) => `${qty(l.quantity)} ${l.product.code}`).join(', ');

type DragHandle = Pick<ReturnType<typeof useDraggable>, 'attributes' | 'listeners' | 'setNodeRef' | 'isDragging'> & { style?: string };

function ChipBody({ stop, handle, children }: { stop: Stop; handle: DragHandle; children?: ReactNode }) {
  const { attributes, listeners, setNodeRef, isDragging, style } = handle;
  return (
    <Paper
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      variant="outlined"
      data-testid={`dispatch-order-${stop.number}`}
      sx={{ p: 1, mb: 0.75, cursor: 'grab', touchAction: 'none', opacity: isDragging ? 0.6 : 1, position: 'relative', zIndex: isDragging ? 20 : 'auto', transform: style, display: 'flex', alignItems: 'center', gap: 1 }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="subtitle2" noWrap>
          {stop.stop_sequence ? `${stop.stop_sequence}. ` : ''}
          {stop.number} · {stop.customer.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div" noWrap>
          {stop.ship_to?.name ?? ''} {stop.planned_time_from ? `· ${stop.planned_time_from.slice(0, 5)}–${(stop.planned_time_to ?? '').slice(0, 5)}` : ''} · {fuel(stop) || 'no bulk fuel'}
        </Typography>
      </Box>
      {children}
    </Paper>
  );
}

/** An unassigned order: drag it onto a truck (or one of its stops) to assign it. */
function OrderChip({ stop }: { stop: Stop }) {
  const d = useDraggable({ id: `order-${stop.id}`, data: { stop } });
  return <ChipBody stop={stop} handle={{ ...d, style: d.transform ? `translate(${d.transform.x}px, ${d.transform.y}px)` : undefined }} />;
}

/** A stop of a truck: drag it up or down among the truck's stops to reorder them (keyboard: focus it,
 * Space, arrows, Space), onto another truck to move it, or onto Unassigned to unassign it. */
function StopChip({ stop, row, children }: { stop: Stop; row: Truck; children?: ReactNode }) {
  const s = useSortable({ id: `order-${stop.id}`, data: { stop, truck: row } });
  const style = s.transform ? `translate(${s.transform.x}px, ${s.transform.y}px)` : undefined;
  return (
    <ChipBody stop={stop} handle={{ ...s, style }}>
      <DragIndicator fontSize="small" color="action" aria-hidden />
      {children}
    </ChipBody>
  );
}

/** Under a pointer: the stop it is over (a reorder, or that stop's truck), else the truck card or the
 * Unassigned column it is in. By keyboard (no pointer): the closest droppable. */
const collision: CollisionDetection = (args) => {
  const within = pointerWithin(args);
  if (within.length === 0) return closestCenter(args);
  const stop = within.find((c) => String(c.id).startsWith('order-') && c.id !== args.active.id);
  return stop ? [stop] : within.filter((c) => !String(c.id).startsWith('order-'));
};

function TruckCard({ row, order }: { row: Truck; order?: number[] }) {
  const { setNodeRef, isOver } = useDroppable({ id: `truck-${row.truck.id}`, data: { truck: row } });
  const [unassign] = useUnassignMutation();
  const pct = Number(row.capacity) ? Math.min(100, (Number(row.load_total) / Number(row.capacity)) * 100) : 0;
  const stops = order ? order.map((id) => row.orders.find((o) => o.id === id)).filter((o): o is Stop => !!o) : row.orders;
  return (
    <Paper ref={setNodeRef} variant="outlined" data-testid={`dispatch-truck-${row.truck.asset_number}`} sx={{ p: 1.5, borderColor: isOver ? 'primary.main' : row.over_capacity ? 'error.main' : 'divider', borderWidth: isOver ? 2 : 1, bgcolor: isOver ? 'primary.50' : 'background.paper' }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
          {row.truck.asset_number}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }} noWrap>
          {row.truck.name}
          {row.trailer ? ` + ${row.trailer.asset_number}` : ''} · {row.home_yard?.name ?? 'no yard'}
        </Typography>
        {row.drivers.map(([id, name]) => (
          <Chip key={id} size="small" label={name} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
        <LinearProgress variant="determinate" value={pct} color={row.over_capacity ? 'error' : pct > 90 ? 'warning' : 'primary'} sx={{ flex: 1, height: 8, borderRadius: 1 }} aria-label={`Load of ${row.truck.asset_number}`} />
        <Typography variant="caption" sx={{ whiteSpace: 'nowrap' }}>
          {qty(row.load_total)} / {qty(row.capacity)} gal
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 1 }}>
        {row.compartments.map((c) => (
          <Tooltip key={`${c.unit}-${c.number}`} title={`${c.unit} compartment ${c.number}: ${qty(c.quantity)} of ${qty(c.capacity)} gal${c.product_name ? ` ${c.product_name}` : ''}`}>
            <Chip size="small" variant={c.product_id ? 'filled' : 'outlined'} color={c.product_id ? 'primary' : 'default'} label={`C${c.number} ${c.product_id ? `${qty(c.quantity)}/${qty(c.capacity)}` : qty(c.capacity)}`} />
          </Tooltip>
        ))}
        {row.compartments.length === 0 && <Typography variant="caption" color="text.secondary">No tank compartments</Typography>}
      </Box>
      {row.loads.length > 0 && (
        <Typography variant="caption" component="div" sx={{ mt: 0.5 }} color={row.over_capacity ? 'error' : 'text.secondary'}>
          {row.loads.map((l) => `${l.product_name} ${qty(l.quantity)} gal${Number(l.over_capacity) ? ` (${qty(l.over_capacity)} over)` : ''}`).join(' · ')}
        </Typography>
      )}
      <Box sx={{ mt: 1 }}>
        <SortableContext id={`truck-stops-${row.truck.id}`} items={stops.map((o) => `order-${o.id}`)} strategy={verticalListSortingStrategy}>
          {stops.map((o) => (
            <StopChip key={o.id} stop={o} row={row}>
              {o.status === 'assigned' && (
                <IconButton size="small" aria-label={`Unassign ${o.number}`} onClick={() => unassign(o.id).unwrap().catch((e: unknown) => toast.error(errorText(e)))} onPointerDown={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                  <LinkOff fontSize="small" />
                </IconButton>
              )}
            </StopChip>
          ))}
        </SortableContext>
        {row.orders.length === 0 && (
          <Typography variant="caption" color="text.secondary">
            Drop orders here
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

function Unassigned({ stops }: { stops: Stop[] }) {
  const { setNodeRef, isOver } = useDroppable({ id: 'unassigned' });
  return (
    <Paper ref={setNodeRef} variant="outlined" data-testid="dispatch-unassigned" sx={{ p: 1.5, bgcolor: isOver ? 'grey.100' : 'grey.50', minHeight: 200 }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
        Unassigned ({stops.length})
      </Typography>
      {stops.map((s) => (
        <OrderChip key={s.id} stop={s} />
      ))}
      {stops.length === 0 && <Typography variant="caption" color="text.secondary">Every verified order of the day is on a truck.</Typography>}
    </Paper>
  );
}

export default function DispatchCenterPage() {
  const [date, setDate] = useState(today);
  const [regionId, setRegionId] = useState<number | null>(null);
  const [yardId, setYardId] = useState<number | null>(null);
  const regions = useRegionOptions();
  const yards = useYardOptions();
  const q = useDispatchDayQuery({ date, region_id: regionId ?? undefined, yard_id: yardId ?? undefined });
  const [assign, assigning] = useAssignMutation();
  const [unassign] = useUnassignMutation();
  const [pending, setPending] = useState<{ stop: Stop; truck: Truck } | null>(null);
  const [driverId, setDriverId] = useState<number | ''>('');
  const [reorder] = useReorderStopsMutation();
  // A reordered truck shows its new order at once, until the server's day arrives.
  const [optimistic, setOptimistic] = useState<{ day: unknown; orders: Record<number, number[]> }>({ day: null, orders: {} });
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const doAssign = async (stop: Stop, truck: Truck, driver: number) => {
    try {
      await assign({ id: stop.id, body: { driver_id: driver, truck_id: truck.truck.id, trailer_id: truck.trailer?.id ?? null } }).unwrap();
      toast.success(`${stop.number} on ${truck.truck.asset_number}`);
    } catch (e) {
      toast.error(errorText(e));
    }
  };

  const onDragEnd = async (e: DragEndEvent) => {
    const stop = (e.active.data.current as { stop: Stop } | undefined)?.stop;
    if (!stop || !e.over) return;
    const overData = e.over.data.current as { truck?: Truck; stop?: Stop } | undefined;
    const truck = overData?.truck;
    const shown = truck ? (optimistic.day === q.data ? optimistic.orders[truck.truck.id] : undefined) ?? truck.orders.map((o) => o.id) : undefined;
    const target = dropTarget(stop, {
      id: String(e.over.id),
      truckId: truck?.truck.id,
      truckStops: shown,
      overStopId: overData?.stop?.id,
    });
    if (target.kind === 'unassign') {
      try {
        await unassign(stop.id).unwrap();
        toast.success(`${stop.number} unassigned`);
      } catch (err) {
        toast.error(errorText(err));
      }
    } else if (target.kind === 'reorder') {
      setOptimistic((o) => ({ day: q.data, orders: { ...(o.day === q.data ? o.orders : {}), [target.truckId]: target.orderIds } }));
      try {
        await reorder({ truck_id: target.truckId, date, order_ids: target.orderIds }).unwrap();
      } catch (err) {
        setOptimistic({ day: null, orders: {} });
        toast.error(errorText(err));
      }
    } else if (target.kind === 'assign' && truck) {
      const driver = stop.driver_id ?? truck.drivers[0]?.[0];
      if (driver) return doAssign(stop, truck, driver);
      setDriverId('');
      setPending({ stop, truck });
    }
  };

  const data = q.data;
  return (
    <PageBody>
      <PageHeader
        title="Dispatch Center"
        subtitle="Drag an order onto a truck to assign it; a truck's load must fit its compartments."
        actions={
          // The route planner (features/routing) is reached by its route, not imported here.
          <Button component={RouterLink} to={`/dispatch-center/plan?date=${date}`} variant="contained" startIcon={<RouteIcon />} data-testid="dispatch-plan-day">
            Plan the day
          </Button>
        }
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2, alignItems: 'center' }}>
        <TextField size="small" type="date" label="Day" sx={{ width: { xs: '100%', sm: 180 } }} value={date} onChange={(e) => setDate(e.target.value || today())} slotProps={{ inputLabel: { shrink: true } }} />
        <ToolbarSelect label="Region" allLabel="All regions" value={regionId} options={regions.options} loading={regions.loading} onChange={(v) => setRegionId(v as number | null)} />
        <ToolbarSelect label="Yard" allLabel="All yards" value={yardId} options={yards.options} loading={yards.loading} onChange={(v) => setYardId(v as number | null)} />
        {(q.isFetching || assigning.isLoading) && <CircularProgress size={24} aria-label="Loading the day" />}
      </Box>
      {q.error && <Alert severity="error" action={<Button onClick={() => q.refetch()}>Retry</Button>}>{errorText(q.error)}</Alert>}
      {data && (
        <DndContext sensors={sensors} collisionDetection={collision} onDragEnd={onDragEnd}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(260px, 1fr) minmax(0, 2.2fr)' }, alignItems: 'start' }}>
            <Box sx={{ position: { md: 'sticky' }, top: 8, minWidth: 0 }}>
              <Unassigned stops={data.unassigned} />
              {data.assigned_elsewhere.length > 0 && (
                <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
                  {data.assigned_elsewhere.length} order(s) of the day are on trucks outside these filters.
                </Typography>
              )}
            </Box>
            <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', xl: 'minmax(0, 1fr) minmax(0, 1fr)' }, minWidth: 0 }}>
              {data.trucks.map((t) => (
                <TruckCard key={t.truck.id} row={t} order={optimistic.day === data ? optimistic.orders[t.truck.id] : undefined} />
              ))}
              {data.trucks.length === 0 && <Alert severity="info">No active trucks for these filters.</Alert>}
            </Box>
          </Box>
        </DndContext>
      )}
      {pending && (
        <Dialog open onClose={() => setPending(null)} maxWidth="xs" fullWidth>
          <DialogTitle>Driver for {pending.truck.truck.asset_number}</DialogTitle>
          <DialogContent sx={{ pt: '8px !important' }}>
            <TextField select fullWidth label="Driver" value={driverId} onChange={(e) => setDriverId(Number(e.target.value))}>
              {(data?.drivers ?? []).map((d) => (
                <MenuItem key={d.id} value={d.id}>{d.name}</MenuItem>
              ))}
            </TextField>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setPending(null)}>Cancel</Button>
            <Button
              variant="contained"
              disabled={!driverId}
              onClick={() => {
                const p = pending;
                setPending(null);
                if (driverId) void doAssign(p.stop, p.truck, driverId);
              }}
            >
              Assign
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </PageBody>
  );
}
