import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { readSelectedTrucks, TRUCKS_CHANGED_EVENT, writeSelectedTrucks } from '@/components/shell/selectedTrucks';
import { isApiError } from '@/lib/api/errors';
import { ConflictList } from './ConflictList';
import { fetchToday, type Stop, type TodayData } from './driverApi';
import { DriverNav } from './DriverNav';
import { OfflineBanner } from './OfflineBanner';
import { cacheGet, cachePut, enqueue, type ActionKind } from './queue';
import { StopCard } from './StopCard';
import { loadDriverTrucks } from './trucks';
import { useDriverQueue } from './useDriverQueue';
import { DriversOnly } from './DriversOnlyPage';

// Loaded when first opened: the signature pad and the form stay out of the page's first load.
const DeliveryDialog = lazy(() => import('./DeliveryDialog').then((m) => ({ default: m.DeliveryDialog })));
const TruckModal = lazy(() => import('@/components/shell/TruckModal').then((m) => ({ default: m.TruckModal })));

function truckIds(): string[] {
  return readSelectedTrucks()
    .map((t) => t.id ?? t.asset_id)
    .filter((id) => id !== undefined && id !== null)
    .map(String);
}

function localDay(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** /todays-order: the driver's stops of the day on the chosen trucks; works offline. */
function TodaysOrdersPage() {
  const [ids, setIds] = useState<string[]>(truckIds);
  const [modalOpen, setModalOpen] = useState(false);
  const [data, setData] = useState<TodayData | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [reload, setReload] = useState(0);
  const [delivering, setDelivering] = useState<Stop | null>(null);
  const onSynced = useCallback(() => setReload((n) => n + 1), []);
  const queue = useDriverQueue(onSynced);

  useEffect(() => {
    // After the first paint: fetch what a delivery needs without a connection (the form, the
    // summary, the truck modal), then register the service worker, which caches all of it.
    const t = window.setTimeout(() => {
      void Promise.allSettled([import('./DeliveryDialog'), import('./DailySummaryPage'), import('@/components/shell/TruckModal')])
        .then(() => import('@/lib/pwa/registerServiceWorker'))
        .then((m) => m.registerServiceWorker())
        .catch(() => undefined);
    }, 300);
    return () => window.clearTimeout(t);
  }, []);

  useEffect(() => {
    const onTrucks = () => setIds(truckIds());
    window.addEventListener(TRUCKS_CHANGED_EVENT, onTrucks);
    return () => window.removeEventListener(TRUCKS_CHANGED_EVENT, onTrucks);
  }, []);

  useEffect(() => {
    let live = true;
    const key = `today:${ids.join(',')}`;
    fetchToday(ids)
      .then(async (fresh) => {
        await cachePut(key, fresh); // kept for offline use even if the page moved on meanwhile
        if (!live) return;
        setData(fresh);
        setSavedAt(null);
        setError(null);
      })
      .catch(async (err: unknown) => {
        const cached = await cacheGet<TodayData>(key);
        if (!live) return;
        if (cached) {
          setData(cached.data);
          setSavedAt(cached.saved_at);
        }
        setError(isApiError(err) ? err.message : 'Today\'s orders could not be loaded.');
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [ids, reload]);

  useEffect(() => {
    // Back online: read the day again (the office may have changed it meanwhile).
    const again = () => setReload((n) => n + 1);
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, []);

  const queuedByOrder = useMemo(() => {
    const map = new Map<number, ActionKind[]>();
    for (const a of queue.pending) map.set(a.order_id, [...(map.get(a.order_id) ?? []), a.kind]);
    return map;
  }, [queue.pending]);

  const start = async (stop: Stop) => {
    await enqueue({ kind: 'start_delivery', order_id: stop.id, order_number: stop.number, order_version: stop.version, payload: {}, taken_at: new Date().toISOString() });
  };

  const stops = data?.orders ?? [];
  const open = stops.filter((s) => !['delivered', 'completed'].includes(s.status) && !queuedByOrder.get(s.id)?.includes('record_delivery')).length;

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <DriverNav />
      <OfflineBanner queue={queue} />
      <ConflictList conflicts={queue.conflicts} />
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
          Today&apos;s Orders
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="stops-summary">
          {data ? `${stops.length} stops · ${open} open · ${data.date}` : localDay()}
        </Typography>
      </Box>
      {savedAt && (
        <Alert severity="info" sx={{ mb: 1.5 }}>
          Showing the copy saved on this phone at {new Date(savedAt).toLocaleTimeString()}.
        </Alert>
      )}
      {error && !savedAt && queue.online && (
        <Alert severity="error" sx={{ mb: 1.5 }} action={<Button color="inherit" onClick={() => setReload((n) => n + 1)}>Retry</Button>}>
          {error}
        </Alert>
      )}
      {ids.length === 0 && (
        <Alert severity="info" sx={{ mb: 1.5 }} action={<Button color="inherit" onClick={() => setModalOpen(true)} sx={{ minHeight: 44 }}>Choose trucks</Button>}>
          No truck chosen: showing all your stops today.
        </Alert>
      )}
      {loading && !data && <CircularProgress aria-label="Loading today's orders" sx={{ display: 'block', mx: 'auto', my: 4 }} />}
      {data && stops.length === 0 && (
        <Typography color="text.secondary" sx={{ my: 4, textAlign: 'center' }}>
          No stops for you today on the chosen trucks.
        </Typography>
      )}
      <Stack spacing={1.5}>
        {stops.map((stop, i) => (
          <StopCard key={stop.id} stop={stop} index={i} queued={queuedByOrder.get(stop.id) ?? []} onStart={() => void start(stop)} onDeliver={() => setDelivering(stop)} />
        ))}
      </Stack>
      <Suspense fallback={<CircularProgress aria-label="Opening" sx={{ position: 'fixed', top: '50%', left: '50%' }} />}>
        {delivering && <DeliveryDialog stop={delivering} onClose={() => setDelivering(null)} onQueued={() => setDelivering(null)} />}
        {modalOpen && (
          <TruckModal
            open
            selected={readSelectedTrucks()}
            loadTrucks={loadDriverTrucks}
            onClose={() => setModalOpen(false)}
            onSave={(next) => {
              writeSelectedTrucks(next);
              setModalOpen(false);
            }}
          />
        )}
      </Suspense>
    </Box>
  );
}

/** Drivers get their page; an office user who opens it gets a clear notice with a way home. */
export default function TodaysOrdersPageRoute() {
  return (
    <DriversOnly page="Today's stops">
      <TodaysOrdersPage />
    </DriversOnly>
  );
}
