import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { OPERATOR_LABELS, operatorsFor, type ActiveFilter, type FilterFieldDef, type FilterOperator } from './types';

export function describeFilter(filter: ActiveFilter, fields: readonly FilterFieldDef[]): string {
  const label = fields.find((f) => f.field === filter.field)?.label ?? filter.field;
  const value = filter.operator === 'between' ? filter.value.split(',').join(' and ') : filter.value;
  return `${label} ${OPERATOR_LABELS[filter.operator]} ${value}`;
}

/** One filter (field, operator, value; 'between' takes two values) applied to the list. */
export function FilterBar({ fields, value, onChange }: { fields: readonly FilterFieldDef[]; value: ActiveFilter | null; onChange: (f: ActiveFilter | null) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [field, setField] = useState(value?.field ?? fields[0]?.field ?? '');
  const def = fields.find((f) => f.field === field) ?? fields[0];
  const ops = def ? operatorsFor(def.type) : [];
  const [operator, setOperator] = useState<FilterOperator>(value?.operator ?? ops[0] ?? 'contains');
  const [first, setFirst] = useState(value?.value.split(',')[0] ?? '');
  const [second, setSecond] = useState(value?.value.split(',')[1] ?? '');
  const op = ops.includes(operator) ? operator : ops[0];
  const inputType = def?.type === 'number' ? 'number' : def?.type === 'date' ? 'date' : 'text';
  const ready = !!def && first.trim() !== '' && (op !== 'between' || second.trim() !== '');

  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (!ready || !def || !op) return;
    onChange({ field: def.field, operator: op, value: op === 'between' ? `${first.trim()},${second.trim()}` : first.trim() });
    setAnchor(null);
  };

  if (!fields.length) return null;
  return (
    <>
      <Button variant="outlined" startIcon={<FilterAltOutlined />} onClick={(e) => setAnchor(e.currentTarget)} aria-haspopup="dialog">
        Filter
      </Button>
      {value && <Chip label={describeFilter(value, fields)} onDelete={() => onChange(null)} color="primary" variant="outlined" />}
      <Popover open={!!anchor} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <Box component="form" onSubmit={apply} sx={{ p: 2, width: 320, maxWidth: '90vw', display: 'flex', flexDirection: 'column', gap: 1.5 }} role="dialog" aria-label="Filter the list">
          <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>
            Filter
          </Typography>
          <TextField select label="Field" value={def?.field ?? ''} onChange={(e) => setField(e.target.value)}>
            {fields.map((f) => (
              <MenuItem key={f.field} value={f.field}>
                {f.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label="Operator" value={op ?? ''} onChange={(e) => setOperator(e.target.value as FilterOperator)}>
            {ops.map((o) => (
              <MenuItem key={o} value={o}>
                {OPERATOR_LABELS[o]}
              </MenuItem>
            ))}
          </TextField>
          {def?.type === 'boolean' ? (
            <TextField select label="Value" value={first} onChange={(e) => setFirst(e.target.value)}>
              <MenuItem value="true">Yes</MenuItem>
              <MenuItem value="false">No</MenuItem>
            </TextField>
          ) : (
            <TextField label={op === 'between' ? 'From' : 'Value'} type={inputType} value={first} onChange={(e) => setFirst(e.target.value)} slotProps={{ inputLabel: { shrink: inputType === 'date' ? true : undefined } }} />
          )}
          {op === 'between' && <TextField label="To" type={inputType} value={second} onChange={(e) => setSecond(e.target.value)} slotProps={{ inputLabel: { shrink: inputType === 'date' ? true : undefined } }} />}
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
            <Button
              onClick={() => {
                onChange(null);
                setFirst('');
                setSecond('');
                setAnchor(null);
              }}
            >
              Clear
            </Button>
            <Button type="submit" variant="contained" disabled={!ready}>
              Apply
            </Button>
          </Box>
        </Box>
      </Popover>
    </>
  );
}
