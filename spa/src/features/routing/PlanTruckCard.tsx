import DragIndicator from '@mui/icons-material/DragIndicator';
import Lock from '@mui/icons-material/Lock';
import LocalGasStation from '@mui/icons-material/LocalGasStation';
import WarningAmber from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ReactNode } from 'react';
import { clock, keepFullLine, slack } from './planFormat';
import { infeasible, lateStops, type RouteRow, type VisitRow } from './planView';

const gal = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
const TONE = { late: 'error.main', tight: '#b23c00', ok: 'success.dark', none: 'text.secondary' } as const;

function StopRow({ visit, seq, color, stale, editable }: { visit: VisitRow; seq: number; color: string; stale: boolean; editable: boolean }) {
  const stop = visit.stop!;
  const { attributes, listeners, setNodeRef, transform, isDragging } = useSortable({ id: `stop-${stop.id}`, data: { stopId: stop.id }, disabled: !editable || stop.fixed });
  const sl = slack(visit.window_slack_s, visit.late_s);
  const bad = visit.late_s > 0 || visit.problems.length > 0;
  return (
    <Box
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      data-testid={`plan-stop-${stop.number}`}
      data-keep-full={stop.keepFull ? 'true' : undefined}
      data-fixed={stop.fixed ? 'true' : undefined}
      data-late={bad ? 'true' : undefined}
      sx={{
        display: 'flex', gap: 1, alignItems: 'flex-start', py: 0.75, px: 1, mb: 0.5, borderRadius: 1, border: 1,
        borderColor: bad ? 'error.main' : 'divider', bgcolor: bad ? '#fdecea' : 'background.paper',
        cursor: editable && !stop.fixed ? 'grab' : 'default', touchAction: editable ? 'none' : 'auto',
        transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined,
        position: 'relative', zIndex: isDragging ? 20 : 'auto', opacity: isDragging ? 0.7 : 1,
      }}
    >
      <Box sx={{ flex: 'none', width: 22, height: 22, borderRadius: '50%', bgcolor: bad ? 'error.main' : color, color: '#fff', fontSize: 12, fontWeight: 700, display: 'flex', alignItems: 'center', justifyContent: 'center', mt: 0.25 }} aria-hidden>
        {seq}
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {stop.keepFull ? (
          <>
            <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', minWidth: 0 }}>
              <Chip size="small" color="success" variant="outlined" label="Keep-full" data-testid="keep-full-chip" sx={{ flex: 'none', height: 20 }} />
              <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 0 }} noWrap>
                {stop.keepFull.tank} · {stop.keepFull.customer}
              </Typography>
            </Box>
            <Typography variant="caption" color="text.secondary" component="div">
              {keepFullLine(stop.keepFull)}
            </Typography>
          </>
        ) : (
          <>
            <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
              {stop.number} · {stop.customer}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="div" noWrap>
              {[stop.place, stop.window && `window ${stop.window}`, stop.quantities].filter(Boolean).join(' · ') || 'no window'}
            </Typography>
          </>
        )}
        {visit.problems.map((p) => (
          <Typography key={p} variant="caption" color="error" component="div">
            {p}
          </Typography>
        ))}
      </Box>
      <Box sx={{ textAlign: 'right', flex: 'none', opacity: stale ? 0.45 : 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          <Box component="span" sx={HIDDEN}>
            ETA{' '}
          </Box>
          {clock(visit.arrival_s)}
        </Typography>
        <Typography variant="caption" sx={{ color: TONE[sl.tone], fontWeight: sl.tone === 'late' ? 700 : 400, whiteSpace: 'nowrap' }}>
          {sl.text}
        </Typography>
      </Box>
      {stop.fixed ? (
        <Tooltip title="In delivery: stays on this truck">
          <Chip size="small" icon={<Lock fontSize="small" />} label="In delivery" aria-label="In delivery: stays on this truck" data-testid="plan-stop-locked" sx={{ flex: 'none' }} />
        </Tooltip>
      ) : (
        editable && <DragIndicator fontSize="small" color="action" aria-hidden sx={{ mt: 0.25 }} />
      )}
    </Box>
  );
}

function EndRow({ visit, stale }: { visit: VisitRow; stale: boolean }) {
  const reload = visit.kind === 'reload';
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', py: 0.5, px: 1, mb: 0.5, color: reload ? '#4a148c' : 'text.secondary', bgcolor: reload ? '#f3e5f5' : 'transparent', borderRadius: 1 }}>
      {reload ? <LocalGasStation fontSize="small" aria-hidden /> : <Box sx={{ width: 20 }} />}
      <Typography variant="caption" sx={{ flex: 1, minWidth: 0 }} noWrap>
        {visit.kind === 'start' ? 'Leaves ' : visit.kind === 'end' ? 'Back at ' : 'Reload at '}
        {visit.label}
      </Typography>
      <Typography variant="caption" sx={{ fontVariantNumeric: 'tabular-nums', opacity: stale ? 0.45 : 1 }}>
        {clock(visit.kind === 'start' ? visit.departure_s : visit.arrival_s)}
      </Typography>
    </Box>
  );
}

/** One truck of the proposed plan: loads, reloads, stops in order with ETAs and slack, totals. */
export function PlanTruckCard({ route, color, current, stale, editable, actions }: { route: RouteRow; color: string; current?: ReactNode; stale: boolean; editable: boolean; actions?: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: `plan-truck-${route.truck_id}` });
  const pct = Math.round(route.utilization * 100);
  const late = lateStops(route);
  const bad = infeasible(route);
  const stops = route.visits.filter((v) => v.kind === 'stop' && v.stop);
  let seq = 0;
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      data-testid={`plan-truck-${route.truck}`}
      component="section"
      aria-label={`Truck ${route.truck}`}
      sx={{ p: 1.5, borderLeft: 5, borderLeftColor: color, borderColor: isOver ? 'primary.main' : bad ? 'error.main' : 'divider', outline: isOver ? '2px solid' : 'none', outlineColor: 'primary.main' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
          {route.truck}
        </Typography>
        {route.driver ? <Chip size="small" label={route.driver} /> : <Chip size="small" color="warning" label="No driver" />}
        {bad && <Chip size="small" color="error" icon={<WarningAmber />} label={late ? `${late} late` : 'Infeasible'} />}
        <Box sx={{ flex: 1 }} />
        {actions}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, fontVariantNumeric: 'tabular-nums', opacity: stale ? 0.45 : 1 }}>
        {stops.length} stop{stops.length === 1 ? '' : 's'} · {route.miles.toFixed(1)} mi · {route.hours.toFixed(1)} h{route.loads.length > 1 ? ` · ${route.loads.length} loads` : ''}
      </Typography>
      {current}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
        <LinearProgress variant="determinate" value={Math.min(100, pct)} color={pct > 100 ? 'error' : pct >= 85 ? 'success' : 'primary'} sx={{ flex: 1, height: 8, borderRadius: 1 }} aria-label={`Utilization of ${route.truck}`} />
        <Typography variant="caption" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
          {pct} % full
        </Typography>
      </Box>
      {route.loads.map((l, i) => (
        <Box key={i} sx={{ mt: 1 }}>
          <Typography variant="caption" color="text.secondary" component="div">
            Load {i + 1} at {l.terminal}
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.25 }}>
            {l.compartments.map((c) => (
              <Chip key={c.index} size="small" variant="outlined" label={`C${c.index + 1} ${c.product} ${gal(c.gallons)}`} />
            ))}
          </Box>
        </Box>
      ))}
      {route.problems.map((p) => (
        <Typography key={p} variant="body2" color="error" sx={{ mt: 0.5 }}>
          {p}
        </Typography>
      ))}
      <Box sx={{ mt: 1 }}>
        <SortableContext id={`plan-stops-${route.truck_id}`} items={stops.map((v) => `stop-${v.stop!.id}`)} strategy={verticalListSortingStrategy}>
          {route.visits.map((v) => (v.kind === 'stop' && v.stop ? <StopRow key={v.key} visit={v} seq={++seq} color={color} stale={stale} editable={editable} /> : <EndRow key={v.key} visit={v} stale={stale} />))}
        </SortableContext>
        {stops.length === 0 && (
          <Typography variant="caption" color="text.secondary">
            No stops: this truck stays in the yard.{editable ? ' Drop a stop here to give it one.' : ''}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}
