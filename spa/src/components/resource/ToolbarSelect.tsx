import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Option } from './types';

export interface ToolbarSelectProps {
  label: string;
  value: string | number | null;
  options: readonly Option[];
  onChange: (value: string | number | null) => void;
  /** The label of the empty choice ('All statuses'). */
  allLabel?: string;
  loading?: boolean;
  minWidth?: number;
}

/** A list filter owned by the page (status, customer …), shown in the list's toolbar. */
export function ToolbarSelect({ label, value, options, onChange, allLabel = 'All', loading, minWidth = 170 }: ToolbarSelectProps) {
  return (
    <TextField
      select
      fullWidth={false}
      size="small"
      label={label}
      value={value === null || value === undefined ? '' : String(value)}
      onChange={(e) => {
        const raw = e.target.value;
        onChange(raw === '' ? null : (options.find((o) => String(o.value) === raw)?.value ?? raw));
      }}
      disabled={loading}
      sx={{ minWidth, flex: { xs: '1 1 140px', sm: '0 0 auto' } }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">
        <em>{allLabel}</em>
      </MenuItem>
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={String(o.value)}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Like ToolbarSelect for long lists (customers): type to find one. */
export function ToolbarCombobox({ label, value, options, onChange, allLabel = 'All', loading, minWidth = 220 }: ToolbarSelectProps) {
  const current = options.find((o) => o.value === value) ?? null;
  return (
    <Autocomplete<Option, false>
      size="small"
      options={options}
      loading={loading}
      value={current}
      onChange={(_, next) => onChange(next ? next.value : null)}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      sx={{ width: { xs: '100%', sm: minWidth } }}
      renderInput={(params) => <TextField {...params} label={label} placeholder={allLabel} slotProps={{ ...params.slotProps, inputLabel: { ...params.slotProps?.inputLabel, shrink: true } }} />}
    />
  );
}
