import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useDraggable, useDroppable } from '@dnd-kit/core';
import type { UnplannedRow } from './planView';

function Row({ row, editable }: { row: UnplannedRow; editable: boolean }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: `stop-${row.stop.id}`, data: { stopId: row.stop.id }, disabled: !editable || row.stop.fixed });
  return (
    <Box
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      data-testid={`plan-unplanned-${row.stop.number}`}
      sx={{ py: 0.75, px: 1, mb: 0.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', cursor: editable ? 'grab' : 'default', touchAction: editable ? 'none' : 'auto', transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined, position: 'relative', zIndex: isDragging ? 20 : 'auto' }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
        {row.stop.number} · {row.stop.customer}
      </Typography>
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
        <Row key={r.stop.id} row={r} editable={editable} />
      ))}
      {rows.length === 0 && (
        <Typography variant="caption" color="text.secondary">
          Every order of the day is on a truck.
        </Typography>
      )}
    </Paper>
  );
}
