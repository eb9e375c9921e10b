import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Timeline as SharedTimeline, type TimelineEvent } from '@/components/common/Timeline';
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

/** The shared timeline, with a bill's word for an overridden match. */
export function Timeline({ events }: { events: TimelineEvent[] }) {
  return <SharedTimeline events={events} note={(e) => (e.details.override ? ' (match overridden)' : '')} />;
}

/** Whether the signed-in user holds one permission code (true until the answer arrives: the server decides). */
export function useCan(code: string): boolean {
  const q = useCurrentUserPermissionsQuery(undefined);
  const data = q.data;
  if (!data) return true;
  return data.grantsAll || data.permissions.includes(code) || data.permissions.includes(`${code}:own`);
}
