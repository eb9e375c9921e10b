import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAX_COMPARTMENTS, compartmentsTotal } from './compartments';

export type CompartmentRow = { number: number | null; capacity: number | null };

export interface CompartmentsEditorProps {
  value: CompartmentRow[];
  onChange: (rows: CompartmentRow[]) => void;
  capacity: number | null;
  error?: string;
  disabled?: boolean;
}

const toNum = (s: string) => (s === '' ? null : Number(s));

/** Rows of compartment number + capacity; the total against the asset's capacity is shown as it is typed. */
export function CompartmentsEditor({ value, onChange, capacity, error, disabled }: CompartmentsEditorProps) {
  const rows = value ?? [];
  const total = compartmentsTotal(rows);
  const cap = capacity ?? 0;
  const over = total > cap;
  const set = (i: number, patch: Partial<CompartmentRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const nextNumber = rows.reduce((m, r) => Math.max(m, r.number ?? 0), 0) + 1;

  return (
    <Box role="group" aria-label="Compartments">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700, flex: 1 }}>
          Compartments
        </Typography>
        <Button size="small" startIcon={<Add />} disabled={disabled || rows.length >= MAX_COMPARTMENTS} onClick={() => onChange([...rows, { number: nextNumber, capacity: null }])}>
          Add compartment
        </Button>
      </Box>
      {rows.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          No compartments: the tank is one space (or the unit has no tank).
        </Typography>
      )}
      {rows.map((r, i) => (
        <Box key={i} sx={{ display: 'grid', gridTemplateColumns: '1fr 2fr auto', gap: 1, alignItems: 'start', mb: 1 }}>
          <TextField
            label={`No.`}
            type="number"
            value={r.number ?? ''}
            disabled={disabled}
            onChange={(e) => set(i, { number: toNum(e.target.value) })}
            slotProps={{ htmlInput: { min: 1, max: 99, step: 1, 'aria-label': `Compartment ${i + 1} number` } }}
          />
          <TextField
            label="Capacity (gal)"
            type="number"
            value={r.capacity ?? ''}
            disabled={disabled}
            onChange={(e) => set(i, { capacity: toNum(e.target.value) })}
            slotProps={{ htmlInput: { min: 1, step: 1, 'aria-label': `Compartment ${i + 1} capacity` } }}
          />
          <IconButton aria-label={`Remove compartment ${i + 1}`} disabled={disabled} onClick={() => onChange(rows.filter((_, j) => j !== i))} sx={{ mt: 0.5 }}>
            <DeleteOutline />
          </IconButton>
        </Box>
      ))}
      {rows.length > 0 && (
        <Box sx={{ mt: 0.5 }}>
          <LinearProgress
            variant="determinate"
            value={cap > 0 ? Math.min(100, (total / cap) * 100) : over ? 100 : 0}
            color={over ? 'error' : 'primary'}
            aria-label="Compartments total against capacity"
            sx={{ height: 6, borderRadius: 3 }}
          />
          <Typography variant="body2" sx={{ mt: 0.5 }} color={over ? 'error' : 'text.secondary'} data-testid="compartments-total" aria-live="polite">
            Total {total.toLocaleString('en-US')} of {cap.toLocaleString('en-US')} gal{over ? ` — ${(total - cap).toLocaleString('en-US')} gal over the capacity` : cap - total > 0 ? ` (${(cap - total).toLocaleString('en-US')} gal not in a compartment)` : ''}
          </Typography>
        </Box>
      )}
      {error && (
        <Typography variant="body2" color="error" role="alert" sx={{ mt: 0.5 }}>
          {error}
        </Typography>
      )}
    </Box>
  );
}
