import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { Option } from '@/components/resource';
import { useCurrentUserPermissionsQuery } from '@/lib/api/lookups';

export function Combo({ label, value, options, onChange, disabled, loading, required }: { label: string; value: number | null; options: Option[]; onChange: (v: number | null) => void; disabled?: boolean; loading?: boolean; required?: boolean }) {
  return (
    <Autocomplete<Option, false>
      size="small"
      options={options}
      loading={loading}
      disabled={disabled}
      value={options.find((o) => o.value === value) ?? null}
      onChange={(_, next) => onChange(next ? Number(next.value) : null)}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      renderInput={(params) => <TextField {...params} label={label} required={required} />}
    />
  );
}

export function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1, gap: 1 }}>
        <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

export function Row({ label, value, strong }: { label: string; value: ReactNode; strong?: boolean }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', py: 0.25 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400 }}>
        {value}
      </Typography>
    </Box>
  );
}

export interface TimelineEvent {
  id: number;
  action: string;
  from_status: string;
  to_status: string;
  by_name: string;
  at: string;
  details: Record<string, unknown>;
}

export function Timeline({ events }: { events: TimelineEvent[] }) {
  if (!events.length) return <Typography variant="body2" color="text.secondary">No moves yet.</Typography>;
  return (
    <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
      {events.map((e) => (
        <li key={e.id}>
          <Typography variant="body2">
            {e.action.replace(/_/g, ' ')}: {e.from_status} → {e.to_status}
            {e.details.override ? ' (match overridden)' : ''}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {new Date(e.at).toLocaleString()} {e.by_name ? `· ${e.by_name}` : ''}
            {typeof e.details.reason === 'string' && e.details.reason ? ` · ${e.details.reason}` : ''}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

/** Whether the signed-in user holds one permission code (true until the answer arrives: the server decides). */
export function useCan(code: string): boolean {
  const q = useCurrentUserPermissionsQuery(undefined);
  const data = q.data;
  if (!data) return true;
  return data.grantsAll || data.permissions.includes(code) || data.permissions.includes(`${code}:own`);
}
