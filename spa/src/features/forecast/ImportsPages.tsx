import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { CsvImportDialog } from '@/components/resource/CsvImportDialog';
import { forecastApi, useCreateWeatherZoneMutation, useDeleteWeatherZoneMutation, useReadingsQuery, useTemperaturesQuery, useWeatherZonesQuery } from './forecastApi';
import { day, gallons, percent } from './model';
import { useAppDispatch } from '@/lib/session/hooks';

export const READINGS_IMPORT = '/forecast/reading/import';
export const TEMPERATURES_IMPORT = '/forecast/weather/temperature/import';

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
                      {r.asset_name || r.serial || `Tank #${r.asset_id}`}
                    </Link>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {gallons(r.gallons)}
                    {r.percent !== null && r.percent !== undefined ? ` · ${percent(r.percent)}` : ''}
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
        help="One row per reading: the tank's serial, when it was taken, and its level in gallons or in percent."
        onImported={() => dispatch(forecastApi.util.invalidateTags([{ type: 'ForecastReading', id: 'LIST' }, 'ForecastTank', { type: 'ForecastDue', id: 'LIST' }]))}
      />
    </Panel>
  );
}

function ZoneForm() {
  const [create, creating] = useCreateWeatherZoneMutation();
  const [name, setName] = useState('');
  const [station, setStation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await create({ name: name.trim(), station: station.trim() || null }).unwrap();
      setName('');
      setStation('');
      toast.success('Weather zone added');
    } catch (err) {
      setError((err as { message?: string })?.message || 'The weather zone could not be saved.');
    }
  };
  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Add a weather zone" sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <TextField size="small" label="Zone name" value={name} onChange={(e) => setName(e.target.value)} sx={{ flex: '1 1 160px' }} />
        <TextField size="small" label="Station (optional)" value={station} onChange={(e) => setStation(e.target.value)} sx={{ flex: '1 1 140px' }} />
        <Button type="submit" variant="outlined" startIcon={<Add />} disabled={creating.isLoading || !name.trim()}>
          Add zone
        </Button>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}

/** /forecast/weather: weather zones, and the daily temperatures with their CSV import. */
export function WeatherPage() {
  const dispatch = useAppDispatch();
  const zones = useWeatherZonesQuery();
  const temps = useTemperaturesQuery({ page: 1, size: 30 });
  const [remove] = useDeleteWeatherZoneMutation();
  const [open, setOpen] = useState(false);
  const zoneRows = zones.data ?? [];
  const tempRows = temps.data ?? [];
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 5 }}>
        <Panel title="Weather zones">
          <ZoneForm />
          <ListState loading={zones.isLoading} error={zones.error} empty={zoneRows.length ? null : 'No zones yet. A zone is a region or a weather station; tanks take their temperatures from theirs.'}>
            <TableContainer>
              <Table size="small" aria-label="Weather zones">
                <TableHead>
                  <TableRow>
                    <TableCell>Zone</TableCell>
                    <TableCell>Station</TableCell>
                    <TableCell padding="checkbox" />
                  </TableRow>
                </TableHead>
                <TableBody>
                  {zoneRows.map((z) => (
                    <TableRow key={z.id}>
                      <TableCell>{z.name}</TableCell>
                      <TableCell>{z.station || '—'}</TableCell>
                      <TableCell padding="checkbox">
                        <IconButton
                          size="small"
                          aria-label={`Delete zone ${z.name}`}
                          onClick={async () => {
                            try {
                              await remove(z.id).unwrap();
                              toast.success('Weather zone deleted');
                            } catch (err) {
                              toast.error((err as { message?: string })?.message || 'The weather zone could not be deleted.');
                            }
                          }}
                        >
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </ListState>
        </Panel>
      </Grid>
      <Grid size={{ xs: 12, md: 7 }}>
        <Panel
          title="Daily temperatures"
          action={
            <Button variant="contained" startIcon={<UploadFile />} onClick={() => setOpen(true)}>
              Import temperatures CSV
            </Button>
          }
        >
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Daily mean temperatures (°F) per zone. Days without an observation or forecast use the zone&apos;s normals (the average of past years for that date).
          </Typography>
          <ListState loading={temps.isLoading} error={temps.error} empty={tempRows.length ? null : 'No temperatures yet. Import a CSV of zone, day and mean °F.'}>
            <TableContainer>
              <Table size="small" aria-label="Daily temperatures">
                <TableHead>
                  <TableRow>
                    <TableCell>Day</TableCell>
                    <TableCell>Zone</TableCell>
                    <TableCell align="right">Mean °F</TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Source</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {tempRows.map((t) => (
                    <TableRow key={t.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{day(t.day)}</TableCell>
                      <TableCell>{t.zone_name ?? `Zone #${t.zone_id}`}</TableCell>
                      <TableCell align="right">{Number(t.mean_f).toFixed(1)}</TableCell>
                      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t.source ?? ''}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </ListState>
          <CsvImportDialog
            open={open}
            onClose={() => setOpen(false)}
            importPath={TEMPERATURES_IMPORT}
            plural="temperatures"
            singular="temperature"
            help="One row per zone and day: the zone's name, the day (YYYY-MM-DD) and the mean temperature in °F."
            onImported={() => dispatch(forecastApi.util.invalidateTags([{ type: 'Temperature', id: 'LIST' }, 'ForecastTank', { type: 'ForecastDue', id: 'LIST' }]))}
          />
        </Panel>
      </Grid>
    </Grid>
  );
}
