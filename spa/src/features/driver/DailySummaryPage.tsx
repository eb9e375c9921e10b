import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { isApiError } from '@/lib/api/errors';
import { ConflictList } from './ConflictList';
import { fetchSummary, type SummaryData } from './driverApi';
import { DriverNav } from './DriverNav';
import { OfflineBanner } from './OfflineBanner';
import { cacheGet, cachePut } from './queue';
import { useDriverQueue } from './useDriverQueue';
import { DriversOnly } from './DriversOnlyPage';

const qty = (v: string | number) => Number(v).toLocaleString(undefined, { maximumFractionDigits: 3 });

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, textAlign: 'center' }}>
      <Typography variant="h5" sx={{ fontWeight: 700 }} data-testid={testId}>
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Paper>
  );
}

/** /daily-summary: deliveries done, quantities per product and per truck, the stops still open. */
function DailySummaryPage() {
  const [data, setData] = useState<SummaryData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const queue = useDriverQueue(() => setReload((n) => n + 1));

  useEffect(() => {
    let live = true;
    fetchSummary()
      .then(async (fresh) => {
        await cachePut('summary', fresh);
        if (!live) return;
        setData(fresh);
        setSavedAt(null);
        setError(null);
      })
      .catch(async (err: unknown) => {
        const cached = await cacheGet<SummaryData>('summary');
        if (!live) return;
        if (cached) {
          setData(cached.data);
          setSavedAt(cached.saved_at);
        }
        setError(isApiError(err) ? err.message : 'The summary could not be loaded.');
      });
    return () => {
      live = false;
    };
  }, [reload]);

  useEffect(() => {
    const again = () => setReload((n) => n + 1);
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, []);

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <DriverNav />
      <OfflineBanner queue={queue} />
      <ConflictList conflicts={queue.conflicts} />
      <Typography component="h1" variant="h5" sx={{ fontWeight: 700, mb: 1 }}>
        Daily Summary {data ? <Typography component="span" color="text.secondary">· {data.date}</Typography> : null}
      </Typography>
      {savedAt && <Alert severity="info" sx={{ mb: 1.5 }}>Saved on this phone at {new Date(savedAt).toLocaleTimeString()}; deliveries waiting to sync are not counted yet.</Alert>}
      {error && !data && <Alert severity="error">{error}</Alert>}
      {!data && !error && <CircularProgress aria-label="Loading the summary" sx={{ display: 'block', mx: 'auto', my: 4 }} />}
      {data && (
        <>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 1, mb: 2 }}>
            <Tile label="Deliveries done" value={String(data.deliveries_done)} testId="deliveries-done" />
            <Tile label="Gallons" value={qty(data.total_gallons)} testId="total-gallons" />
            <Tile label="Open stops" value={String(data.open_stops)} testId="open-stops" />
          </Box>
          {data.planned_miles != null && (
            <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1, mb: 2 }}>
              <Tile label="Planned miles" value={String(data.planned_miles)} testId="planned-miles" />
              <Tile
                label="Driven miles"
                value={data.driven_miles != null ? String(data.driven_miles) : 'No GPS yet'}
                testId="driven-miles"
              />
            </Box>
          )}
          <Typography component="h2" variant="h6">Per product</Typography>
          <Table size="small" sx={{ mb: 2 }} aria-label="Quantities per product">
            <TableHead>
              <TableRow>
                <TableCell>Product</TableCell>
                <TableCell align="right">Delivered</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.products.length === 0 && (
                <TableRow><TableCell colSpan={2}>Nothing delivered yet today.</TableCell></TableRow>
              )}
              {data.products.map((p) => (
                <TableRow key={p.product_id}>
                  <TableCell>{p.product_name}</TableCell>
                  <TableCell align="right">{qty(p.quantity)} {p.unit}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Typography component="h2" variant="h6">Per truck</Typography>
          <Table size="small" sx={{ mb: 2 }} aria-label="Deliveries per truck">
            <TableHead>
              <TableRow>
                <TableCell>Truck</TableCell>
                <TableCell align="right">Deliveries</TableCell>
                <TableCell align="right">Gallons</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.trucks.length === 0 && (
                <TableRow><TableCell colSpan={3}>No deliveries yet.</TableCell></TableRow>
              )}
              {data.trucks.map((t) => (
                <TableRow key={t.truck}>
                  <TableCell>{t.truck}</TableCell>
                  <TableCell align="right">{t.deliveries}</TableCell>
                  <TableCell align="right">{qty(t.gallons)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Typography component="h2" variant="h6">Stops</Typography>
          <Table size="small" aria-label="Stops of the day">
            <TableBody>
              {data.stops.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>{s.stop_number}</TableCell>
                  <TableCell>{s.customer_name}<br /><Typography variant="caption" color="text.secondary">{s.number}</Typography></TableCell>
                  <TableCell align="right">{['delivered', 'completed', 'archive'].includes(s.status) ? 'Delivered' : 'Open'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Box>
  );
}

/** Drivers get their page; an office user who opens it gets a clear notice with a way home. */
export default function DailySummaryPageRoute() {
  return (
    <DriversOnly page="Daily summary">
      <DailySummaryPage />
    </DriversOnly>
  );
}
