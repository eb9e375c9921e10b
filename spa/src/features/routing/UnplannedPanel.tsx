import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Lock from '@mui/icons-material/Lock';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useDraggable, useDroppable } from '@dnd-kit/core';
import { useState } from 'react';
import { keepFullLine } from './planFormat';
import type { UnplannedRow } from './planView';

function Row({ row, editable }: { row: UnplannedRow; editable: boolean }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: `stop-${row.stop.id}`, data: { stopId: row.stop.id }, disabled: !editable || row.stop.fixed });
  return (
    <Box
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      data-testid={`plan-unplanned-${row.stop.number}`}
      data-fixed={row.stop.fixed ? 'true' : undefined}
      sx={{ py: 0.75, px: 1, mb: 0.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', cursor: editable && !row.stop.fixed ? 'grab' : 'default', touchAction: editable ? 'none' : 'auto', transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined, position: 'relative', zIndex: isDragging ? 20 : 'auto' }}
    >
      <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} noWrap>
          {row.stop.number} · {row.stop.customer}
        </Typography>
        {row.stop.fixed && (
          <Tooltip title="In delivery: stays on this truck">
            <Chip size="small" icon={<Lock fontSize="small" />} label="In delivery" aria-label="In delivery: stays on this truck" sx={{ flex: 'none', height: 20 }} />
          </Tooltip>
        )}
      </Box>
      {(row.stop.place || row.stop.window || row.stop.quantities) && (
        <Typography variant="caption" color="text.secondary" component="div" noWrap>
          {[row.stop.place, row.stop.window && `window ${row.stop.window}`, row.stop.quantities].filter(Boolean).join(' · ')}
        </Typography>
      )}
      <Typography variant="caption" color="error" component="div" sx={{ fontWeight: 600 }}>
        {row.reason}
      </Typography>
    </Box>
  );
}

/** Orders the plan leaves out, each with the reason; a drop here takes a stop off its truck. */
export function UnplannedPanel({ rows, editable }: { rows: UnplannedRow[]; editable: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: 'plan-unplanned' });
  return (
    <Paper ref={setNodeRef} variant="outlined" component="section" aria-label="Not planned" data-testid="plan-unplanned" sx={{ p: 1.5, bgcolor: isOver ? 'grey.100' : 'grey.50' }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
        Not planned ({rows.length})
      </Typography>
      {rows.map((r) => (
        <Row key={String(r.stop.id)} row={r} editable={editable} />
      ))}
      {rows.length === 0 && (
        <Typography variant="caption" color="text.secondary">
          Every order of the day is on a truck.
        </Typography>
      )}
    </Paper>
  );
}

function TankRow({ row, editable }: { row: UnplannedRow; editable: boolean }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: `stop-${row.stop.id}`, data: { stopId: row.stop.id }, disabled: !editable });
  const k = row.stop.keepFull;
  return (
    <Box
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      data-testid={`plan-keep-full-${row.stop.id}`}
      sx={{ py: 0.75, px: 1, mb: 0.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', cursor: editable ? 'grab' : 'default', touchAction: editable ? 'none' : 'auto', transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined, position: 'relative', zIndex: isDragging ? 20 : 'auto' }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
        {k ? `${k.tank} · ${k.customer}` : row.stop.number}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div" noWrap>
        {k ? keepFullLine(k) : row.stop.quantities}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {row.reason}
      </Typography>
    </Box>
  );
}

/**
 * Due keep-full tanks the planner did not take today (optional stops: not a failure), collapsed by
 * default; a tank dragged onto a truck is topped up on that route, a keep-full stop dropped here
 * comes off its truck.
 */
export function KeepFullPanel({ rows, editable }: { rows: UnplannedRow[]; editable: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: 'plan-keep-full' });
  const [open, setOpen] = useState(false);
  if (rows.length === 0) return null;
  return (
    <Paper ref={setNodeRef} variant="outlined" component="section" aria-label="Keep-full tanks not on the way" data-testid="plan-keep-full" sx={{ p: 1.5, bgcolor: isOver ? 'grey.100' : 'background.paper' }}>
      <Button onClick={() => setOpen((o) => !o)} aria-expanded={open} endIcon={open ? <ExpandLess /> : <ExpandMore />} sx={{ p: 0, minWidth: 0, textTransform: 'none', color: 'text.primary', fontWeight: 700, fontSize: '1rem', justifyContent: 'flex-start', textAlign: 'left' }}>
        {`Keep-full tanks not on the way (${rows.length})`}
      </Button>
      <Typography variant="caption" color="text.secondary" component="div">
        Optional top-ups the planner left out today: the detour costs more than they are worth.
      </Typography>
      <Collapse in={open}>
        <Box sx={{ mt: 1 }}>
          {rows.map((r) => (
            <TankRow key={String(r.stop.id)} row={r} editable={editable} />
          ))}
        </Box>
      </Collapse>
    </Paper>
  );
}
