import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { CsvImportDialog } from '@/components/resource/CsvImportDialog';
import { ActiveChip, ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { forecastApi, temperaturesApi, useReadingsQuery, useWeatherZonesAllQuery, weatherZonesApi, type Temperature, type TemperatureWrite, type WeatherZone, type WeatherZoneWrite } from './forecastApi';
import { day, gallons, percent } from './model';
import { useAppDispatch } from '@/lib/session/hooks';

export const READINGS_IMPORT = '/forecast/reading/import';

function Panel({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 1.5, sm: 2.5 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
          <Typography component="h2" variant="h6" sx={{ fontWeight: 700, flex: 1 }}>
            {title}
          </Typography>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

function ListState({ loading, error, empty, children }: { loading: boolean; error: unknown; empty: string | null; children: ReactNode }) {
  if (loading) return <Skeleton variant="rounded" height={120} />;
  if (error) return <Alert severity="error">{(error as { message?: string })?.message || 'Failed to fetch'}</Alert>;
  if (empty) return <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>{empty}</Typography>;
  return <>{children}</>;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** /forecast/readings: tank-monitor and office readings, and their CSV import. */
export function ReadingsPage() {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const q = useReadingsQuery({ page: 1, size: 50 });
  const rows = q.data ?? [];
  return (
    <Panel
      title="Tank readings"
      action={
        <Button variant="contained" startIcon={<UploadFile />} onClick={() => setOpen(true)}>
          Import readings CSV
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Monitors post readings by tank serial; a driver&apos;s &quot;level before&quot; at delivery is one too. Each reading restarts the tank&apos;s projection from the level it gives.
      </Typography>
      <ListState loading={q.isLoading} error={q.error} empty={rows.length ? null : 'No readings yet. Import a CSV, or add one from a tank’s page.'}>
        <TableContainer>
          <Table size="small" aria-label="Recent readings">
            <TableHead>
              <TableRow>
                <TableCell>Taken</TableCell>
                <TableCell>Tank</TableCell>
                <TableCell align="right">Level</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Source</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(r.taken_at)}</TableCell>
                  <TableCell>
                    <Link component={RouterLink} to={`/forecast/tank/${r.asset_id}`} underline="hover">
                      {r.asset_name || `Tank #${r.asset_id}`}
                    </Link>
                    {r.serial_number && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {r.serial_number}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {gallons(r.level_gallons)} · {percent(r.level_percent)}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{r.source ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </ListState>
      <CsvImportDialog
        open={open}
        onClose={() => setOpen(false)}
        importPath={READINGS_IMPORT}
        plural="readings"
        singular="reading"
        help="One row per reading: serial_number (or asset_id), taken_at (e.g. 2026-01-15T07:30:00-05:00), and level_percent or level_gallons."
        onImported={() => dispatch(forecastApi.util.invalidateTags([{ type: 'ForecastReading', id: 'LIST' }, 'ForecastTank', { type: 'ForecastDue', id: 'LIST' }]))}
      />
    </Panel>
  );
}

interface ZoneForm {
  code: string;
  name: string;
  station: string;
  is_active: boolean;
}

const zoneColumns: ColumnDef<WeatherZone>[] = [
  { field: 'code', headerName: 'Code', sortField: 'code', width: 110 },
  { field: 'name', headerName: 'Zone', sortField: 'name', minWidth: 150, flex: 1, card: 'title' },
  { field: 'station', headerName: 'Station', width: 120, hideOnPhone: true, value: (z) => z.station || '—' },
  { field: 'is_active', headerName: 'Status', width: 100, value: (z) => (z.is_active ? 'Active' : 'Inactive'), render: (z) => <ActiveChip active={z.is_active} /> },
];

const zoneFields: FieldDef<ZoneForm>[] = [
  { name: 'code', label: 'Code', required: true, maxLength: 40, width: 4, helperText: 'e.g. GSO' },
  { name: 'name', label: 'Name', required: true, maxLength: 120, width: 8, helperText: 'A region or a weather station' },
  { name: 'station', label: 'Provider station id', maxLength: 40, width: 12, helperText: 'Used only where a weather provider is configured' },
  { name: 'is_active', label: 'Active', type: 'switch' },
];

const tempColumns: ColumnDef<Temperature>[] = [
  { field: 'day', headerName: 'Day', sortField: 'day', width: 140, value: (t) => day(t.day), card: 'title' },
  { field: 'zone', headerName: 'Zone', minWidth: 140, flex: 1, value: (t) => t.zone.name },
  { field: 'mean_f', headerName: 'Mean °F', sortField: 'mean_f', width: 100, align: 'right', value: (t) => Number(t.mean_f).toFixed(1) },
  { field: 'kind', headerName: 'Kind', width: 110, hideOnPhone: true },
  { field: 'source', headerName: 'Source', width: 110, hideOnPhone: true },
];

interface TempForm {
  zone_id: number | null;
  day: string;
  mean_f: number | null;
  kind: 'observed' | 'forecast';
}

function useZoneOptions() {
  const q = useWeatherZonesAllQuery();
  return { options: (q.data ?? []).map((z) => ({ value: z.id, label: z.name })), loading: q.isLoading, error: q.error ? 'Weather zones could not be loaded' : null };
}

const tempFields: FieldDef<TempForm>[] = [
  { name: 'zone_id', label: 'Zone', type: 'select', required: true, width: 12, useOptions: () => useZoneOptions() },
  { name: 'day', label: 'Day', type: 'date', required: true, width: 6 },
  { name: 'mean_f', label: 'Mean °F', type: 'number', required: true, min: -60, max: 130, step: 0.1, width: 6, helperText: '-60 to 130' },
  { name: 'kind', label: 'Kind', type: 'select', width: 12, options: [{ value: 'observed', label: 'Observed' }, { value: 'forecast', label: 'Forecast' }] },
];

/** /forecast/weather: weather zones, and the daily temperatures with their CSV import. */
export function WeatherPage() {
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, lg: 5 }}>
        <ResourceListPage<WeatherZone, ZoneForm, WeatherZoneWrite, Partial<WeatherZoneWrite>>
          embedded
          title="Weather zones"
          subtitle="Each tank takes its temperatures from its zone."
          singular="Weather zone"
          plural="weather zones"
          resource={weatherZonesApi}
          permission="weather_zone"
          columns={zoneColumns}
          describe={(z) => z.name}
          defaultPageSize={25}
          defaultSort={{ field: 'name', order: 'asc' }}
          searchPlaceholder="Search zones"
          filters={[{ field: 'is_active', label: 'Active', type: 'boolean' }]}
          form={{
            fields: zoneFields,
            emptyValues: { code: '', name: '', station: '', is_active: true },
            toValues: (z) => ({ code: z.code, name: z.name, station: z.station, is_active: z.is_active }),
            toCreateBody: (v) => ({ code: v.code.trim(), name: v.name.trim(), station: v.station.trim(), is_active: v.is_active }),
            toUpdateBody: (v) => ({ code: v.code.trim(), name: v.name.trim(), station: v.station.trim(), is_active: v.is_active }),
          }}
          exportFilename="weather-zones"
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 7 }}>
        <ResourceListPage<Temperature, TempForm, TemperatureWrite, never>
          embedded
          title="Daily temperatures"
          subtitle="Daily means (°F) per zone. Days with no observation or forecast use the zone's normals (the average of past years for that date)."
          singular="Daily temperature"
          plural="temperatures"
          resource={temperaturesApi}
          permission="daily_temperature"
          columns={tempColumns}
          describe={(t) => `${t.zone.name} ${t.day}`}
          defaultPageSize={50}
          defaultSort={{ field: 'day', order: 'desc' }}
          filters={[
            { field: 'day', label: 'Day', type: 'date' },
            { field: 'mean_f', label: 'Mean °F', type: 'number' },
            { field: 'kind', label: 'Kind', type: 'text' },
          ]}
          canEdit={() => false}
          form={{
            fields: tempFields,
            emptyValues: { zone_id: null, day: '', mean_f: null, kind: 'observed' },
            toValues: (t) => ({ zone_id: t.zone.id, day: t.day, mean_f: Number(t.mean_f), kind: t.kind === 'forecast' ? 'forecast' : 'observed' }),
            toCreateBody: (v) => ({ zone_id: v.zone_id ?? 0, day: v.day, mean_f: String(v.mean_f ?? ''), kind: v.kind }),
            toUpdateBody: () => undefined as never,
          }}
          importHelp="One row per zone and day: zone (its code or name), day (YYYY-MM-DD), mean_f (°F, -60 to 130), and kind (observed or forecast, optional)."
          exportFilename="temperatures"
        />
      </Grid>
    </Grid>
  );
}
