import ArrowBack from '@mui/icons-material/ArrowBack';
import Route from '@mui/icons-material/Route';
import StopCircle from '@mui/icons-material/StopCircle';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, pointerWithin, useSensor, useSensors, type CollisionDetection, type DragEndEvent } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { RouteMap, routeStyle, type MapRoute } from '@/components/map/RouteMap';
import { isApiError } from '@/lib/api/errors';
import { useTerminalLookupQuery } from '@/lib/api/lookups';
import { changedTrucks, dropFor, evaluateBody, layoutOf, moveStop, type Layout } from './planEdit';
import { PlanSummary } from './PlanSummary';
import { PlanTruckCard } from './PlanTruckCard';
import { arrange, infeasible, type PlanView, type StopId } from './planView';
import { KeepFullPanel, UnplannedPanel } from './UnplannedPanel';
import { tilesOf, toPlanView, useAcceptPlanMutation, useEvaluatePlanMutation, usePlanQuery, usePlansQuery, useRoutingSettingsQuery, useStartPlanMutation, useStopPlanMutation, type PlanBody, type RoutePlan, type Terminal } from './routingApi';

const today = () => new Date().toISOString().slice(0, 10);
const errorText = (e: unknown) => (isApiError(e) ? e.message : 'Something went wrong.');
export const BUDGETS = [
  { seconds: 10, label: '10 seconds' },
  { seconds: 30, label: '30 seconds' },
  { seconds: 60, label: '1 minute' },
  { seconds: 120, label: '2 minutes' },
  { seconds: 300, label: '5 minutes' },
] as const;
export const STATUS: Record<string, { label: string; color: 'default' | 'info' | 'success' | 'warning' | 'error' | 'primary' }> = {
  queued: { label: 'Queued', color: 'default' },
  running: { label: 'Planning…', color: 'info' },
  ready: { label: 'Ready', color: 'success' },
  stopped: { label: 'Stopped early', color: 'warning' },
  failed: { label: 'Failed', color: 'error' },
  accepted: { label: 'Accepted', color: 'primary' },
};
const active = (s: string | undefined) => s === 'queued' || s === 'running';

/** Under a pointer: the stop it is over, else the truck card or the not-planned list. */
const collision: CollisionDetection = (args) => {
  const within = pointerWithin(args);
  if (within.length === 0) return closestCenter(args);
  const stop = within.find((c) => String(c.id).startsWith('stop-') && c.id !== args.active.id);
  return stop ? [stop] : within.filter((c) => !String(c.id).startsWith('stop-'));
};

function mapRoutes(view: PlanView): MapRoute[] {
  return view.routes.map((r) => {
    let seq = 0;
    return {
      key: String(r.truck_id),
      name: `${r.truck}${r.driver ? ` · ${r.driver}` : ''}`,
      path: r.visits.map((v) => ({ key: v.key, kind: v.kind === 'stop' ? 'stop' : v.kind === 'reload' ? 'terminal' : 'yard', label: v.stop ? `${v.stop.number} ${v.stop.customer}` : v.label, seq: v.kind === 'stop' ? ++seq : undefined, late: v.late_s > 0 || v.problems.length > 0, inDelivery: Boolean(v.stop?.fixed), keepFull: Boolean(v.stop?.keepFull), lat: v.lat ?? undefined, lng: v.lng ?? undefined })),
    };
  });
}

/** An order in delivery: it stays on its truck, the page refuses to move it (the server would too). */
export const isFixed = (view: PlanView, stopId: StopId) => view.routes.some((r) => r.visits.some((v) => v.stop?.id === stopId && v.stop.fixed)) || view.unplanned.some((u) => u.stop.id === stopId && u.stop.fixed);

const layoutOfBody = (body: PlanBody): Layout => layoutOf(body.routes.map((r) => ({ truck_id: Number(r.truck_id), visits: r.visits })));

function PlanResult({ plan, body, tiles, terminals }: { plan: RoutePlan; body: PlanBody; tiles: string | null; terminals: Terminal[] }) {
  const currentBody = plan.current;
  const proposal = useMemo(() => toPlanView(body, currentBody, terminals), [body, currentBody, terminals]);
  const original = useMemo(() => layoutOfBody(body), [body]);
  const [layout, setLayout] = useState<Layout | null>(null);
  const [evaluated, setEvaluated] = useState<{ layout: Layout; view: PlanView } | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const [showing, setShowing] = useState<'proposed' | 'current'>('proposed');
  const [evaluate, evaluating] = useEvaluatePlanMutation();
  const [accept, accepting] = useAcceptPlanMutation();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const editable = plan.status === 'ready' || plan.status === 'stopped' || plan.status === 'accepted';
  const [accepted, setAccepted] = useState<Set<number>>(() => new Set());

  const shown = layout ?? original;
  const fresh = !layout || evaluated?.layout === layout;
  const view = !layout ? proposal : evaluated?.layout === layout ? evaluated.view : arrange(evaluated?.view ?? proposal, layout);
  const edited = layout ? changedTrucks(original, layout) : [];

  const onDragEnd = async (e: DragEndEvent) => {
    const stopId = (e.active.data.current as { stopId?: StopId } | undefined)?.stopId;
    if (stopId === undefined) return;
    if (isFixed(view, stopId)) {
      toast.info('In delivery: stays on this truck');
      return;
    }
    const drop = dropFor(shown, stopId, e.over ? String(e.over.id) : null);
    if (!drop) return;
    const next = moveStop(shown, stopId, drop);
    if (next === shown) return;
    setLayout(next);
    try {
      const result = await evaluate({ id: plan.id, body: evaluateBody(next) }).unwrap();
      const ev = toPlanView(result, plan.current, terminals);
      // The evaluator says only "not on a route": keep the planner's reason, or say the user took it off.
      const why = new Map(proposal.unplanned.map((u) => [u.stop.id, u.reason]));
      const unplanned = ev.unplanned.map((u) => (u.reason === 'not on a route' ? { ...u, reason: why.get(u.stop.id) ?? 'Taken off its truck by you' } : u));
      setEvaluated({ layout: next, view: { ...ev, unplanned, current: proposal.current } });
    } catch (err) {
      toast.error(errorText(err));
    }
  };

  const doAccept = async (truckIds: number[] | null) => {
    const routes = layout ? evaluateBody(layout).routes.filter((r) => !truckIds || truckIds.includes(r.truck_id)) : undefined;
    try {
      const r = await accept({ id: plan.id, body: { ...(truckIds ? { truck_ids: truckIds } : {}), ...(routes ? { routes } : {}) } }).unwrap();
      setAccepted((a) => new Set([...a, ...r.trucks.map(Number)]));
      toast.success(r.message);
    } catch (err) {
      toast.error(errorText(err));
    }
  };

  const currentView = useMemo(() => (currentBody ? toPlanView(currentBody, null, terminals) : null), [currentBody, terminals]);
  const mapView = showing === 'current' && currentView ? currentView : view;
  const bad = view.routes.filter(infeasible).length;
  const open = view.routes.filter((r) => !accepted.has(r.truck_id) && r.visits.some((v) => v.kind === 'stop'));

  return (
    <DndContext sensors={sensors} collisionDetection={collision} onDragEnd={onDragEnd}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1.1fr) minmax(0, 1fr)' }, mb: 2, alignItems: 'start' }}>
        <Box sx={{ minWidth: 0 }}>
          <PlanSummary totals={view.totals} current={view.current} unplanned={view.unplanned.length} />
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1.5, alignItems: 'center' }}>
            <Button variant="contained" disabled={!editable || accepting.isLoading || open.length === 0} onClick={() => doAccept(null)} data-testid="plan-accept-all">
              {layout && edited.length ? `Accept all (${edited.length} adjusted)` : 'Accept all'}
            </Button>
            {layout && (
              <Button onClick={() => { setLayout(null); setEvaluated(null); }} disabled={accepting.isLoading}>
                Undo my changes
              </Button>
            )}
            {(evaluating.isLoading || accepting.isLoading) && <CircularProgress size={22} aria-label={evaluating.isLoading ? 'Re-evaluating' : 'Accepting'} />}
          </Box>
          {layout && fresh && bad > 0 && <Alert severity="error" sx={{ mt: 1 }}>{`${bad} truck${bad === 1 ? ' breaks' : 's break'} a rule (late, over capacity, past the shift): see the red marks.`}</Alert>}
          {'general' in view && (view as { general: string[] }).general.length > 0 && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {(view as { general: string[] }).general.join(' · ')}
            </Alert>
          )}
          {plan.left_out.length > 0 && (
            <Alert severity="info" sx={{ mt: 1.5 }} data-testid="plan-left-out">
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {`Left out of planning (${plan.left_out.length})`}
              </Typography>
              {plan.left_out.map((l) => (
                <Typography key={`${l.kind}-${l.ref}`} variant="body2">{`${l.label}: ${l.reason}`}</Typography>
              ))}
            </Alert>
          )}
          <Box sx={{ mt: 2 }}>
            <UnplannedPanel rows={view.unplanned} editable={editable} />
          </Box>
          {(view.keepFullSkipped?.length ?? 0) > 0 && (
            <Box sx={{ mt: 1.5 }}>
              <KeepFullPanel rows={view.keepFullSkipped ?? []} editable={editable} />
            </Box>
          )}
        </Box>
        <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }} component="section" aria-label="Map">
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
            <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, flex: 1 }}>
              Map
            </Typography>
            {currentView && (
              <ToggleButtonGroup size="small" exclusive value={showing} onChange={(_, v: 'proposed' | 'current' | null) => v && setShowing(v)} aria-label="Which plan the map shows">
                <ToggleButton value="proposed">Proposed</ToggleButton>
                <ToggleButton value="current">Current</ToggleButton>
              </ToggleButtonGroup>
            )}
          </Box>
          <RouteMap
            routes={mapRoutes(mapView)}
            places={view.places.map((p) => ({ ...p, lat: p.lat ?? undefined, lng: p.lng ?? undefined }))}
            loose={mapView.unplanned.map((u) => ({ key: `u-${u.stop.id}`, kind: 'stop', label: `${u.stop.number} ${u.stop.customer}: ${u.reason}`, inDelivery: Boolean(u.stop.fixed), lat: u.stop.lat ?? undefined, lng: u.stop.lng ?? undefined }))}
            tiles={tiles}
            highlight={highlight}
            title={showing === 'current' ? 'Map of the current plan' : 'Map of the proposed plan'}
          />
        </Paper>
      </Box>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' } }}>
          {view.routes.map((r, i) => {
            const now = plan.current?.routes.find((c) => c.truck_id === r.truck_id);
            const nowStops = now ? now.visits.filter((v) => v.kind === 'stop').length : 0;
            return (
              <Box key={r.truck_id} onMouseEnter={() => setHighlight(String(r.truck_id))} onMouseLeave={() => setHighlight(null)} sx={{ minWidth: 0 }}>
                <PlanTruckCard
                  route={r}
                  color={routeStyle(i).color}
                  stale={!fresh}
                  editable={editable && !accepted.has(r.truck_id)}
                  current={
                    plan.current ? (
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                        {now && nowStops ? `Now: ${nowStops} stop${nowStops === 1 ? '' : 's'} · ${Number(now.miles).toFixed(1)} mi · ${Number(now.hours).toFixed(1)} h` : 'Now: no stops'}
                      </Typography>
                    ) : undefined
                  }
                  actions={
                    accepted.has(r.truck_id) ? (
                      <Chip size="small" color="primary" label="Accepted" />
                    ) : (
                      <Button size="small" variant="outlined" disabled={!editable || accepting.isLoading || !r.visits.some((v) => v.kind === 'stop')} onClick={() => doAccept([r.truck_id])} aria-label={`Accept ${r.truck}`}>
                        {edited.includes(r.truck_id) ? 'Accept adjusted' : 'Accept'}
                      </Button>
                    )
                  }
                />
              </Box>
            );
          })}
      </Box>
    </DndContext>
  );
}

/** "Plan the day": runs the route planner in the worker, shows its proposal beside the current plan. */
export default function RoutePlanPage() {
  const [params, setParams] = useSearchParams();
  const date = params.get('date') || today();
  const [chosen, setBudget] = useState<number | null>(null);
  const plans = usePlansQuery({ planned_date: date });
  const latest = plans.data?.[0] ?? null;
  const plan = usePlanQuery(latest?.id ?? 0, { skip: !latest, pollingInterval: active(latest?.status) ? 1000 : 0 });
  const current = plan.data && plan.data.id === latest?.id ? plan.data : latest;
  const running = active(current?.status);
  const terminals = useTerminalLookupQuery();
  const [start, starting] = useStartPlanMutation();
  const [stop, stopping] = useStopPlanMutation();
  const settings = useRoutingSettingsQuery();
  const budget = chosen ?? settings.data?.default_seconds ?? 30;
  const budgets = BUDGETS.some((b) => b.seconds === budget) ? BUDGETS : [...BUDGETS, { seconds: budget, label: `${budget} seconds` }].sort((a, b) => a.seconds - b.seconds);

  const onStart = async () => {
    try {
      await start({ planned_date: date, seconds: budget }).unwrap();
    } catch (err) {
      toast.error(errorText(err));
    }
  };
  const onStop = async () => {
    if (!latest) return;
    try {
      await stop(latest.id).unwrap();
      toast.info('Stopped: the best plan found so far is kept.');
    } catch (err) {
      toast.error(errorText(err));
    }
  };
  const st = current ? (STATUS[current.status] ?? { label: current.status, color: 'default' as const }) : null;
  const pct = Math.round(Number(current?.progress ?? 0) * 100);

  return (
    <PageBody>
      <PageHeader
        title="Plan the day"
        subtitle="The route planner loads every truck's compartments and orders its stops inside windows and shifts. Review its proposal, drag stops to adjust, and accept it per truck or all at once."
        actions={
          <Button component={RouterLink} to="/dispatch-center" startIcon={<ArrowBack />}>
            Dispatch center
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: 1.5, mb: 2 }}>
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField size="small" type="date" label="Day" value={date} onChange={(e) => setParams({ date: e.target.value || today() }, { replace: true })} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: { xs: '100%', sm: 180 } }} />
          <TextField select size="small" label="Time budget" value={budget} onChange={(e) => setBudget(Number(e.target.value))} sx={{ width: { xs: '100%', sm: 190 } }} helperText="Longer finds better plans">
            {budgets.map((b) => (
              <MenuItem key={b.seconds} value={b.seconds}>
                {b.label}
              </MenuItem>
            ))}
          </TextField>
          {running ? (
            <Button variant="contained" color="warning" startIcon={<StopCircle />} onClick={onStop} disabled={stopping.isLoading} sx={{ alignSelf: 'flex-start' }}>
              Stop and keep the best so far
            </Button>
          ) : (
            <Button variant="contained" startIcon={<Route />} onClick={onStart} disabled={starting.isLoading || plans.isLoading} sx={{ alignSelf: 'flex-start' }} data-testid="plan-start">
              {current ? 'Plan again' : 'Plan the day'}
            </Button>
          )}
          {st && <Chip label={st.label} color={st.color} sx={{ alignSelf: 'flex-start', mt: 0.5 }} data-testid="plan-status" />}
        </Box>
        {running && (
          <Box sx={{ mt: 1.5 }} aria-live="polite">
            <LinearProgress variant={pct > 0 ? 'determinate' : 'indeterminate'} value={pct} aria-label="Planning progress" sx={{ height: 8, borderRadius: 1 }} />
            <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
              {`${pct} % of the time budget`}
              {current?.plan ? ` · best so far: ${current.plan.totals.trucks_used} trucks, ${Number(current.plan.totals.miles).toFixed(1)} mi, ${current.plan.totals.late_stops} late` : ' · looking for a first plan…'}
            </Typography>
          </Box>
        )}
        {current?.status === 'failed' && <Alert severity="error" sx={{ mt: 1.5 }}>{current.error || 'The planner failed. Try again, or ask support with the job log.'}</Alert>}
      </Paper>
      {(plans.error || plan.error) && <Alert severity="error" sx={{ mb: 2 }}>{errorText(plans.error ?? plan.error)}</Alert>}
      {(plans.isLoading || (latest && !current && plan.isFetching)) && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading the plan" />
        </Box>
      )}
      {plans.data && !latest && (
        <Alert severity="info">{`No plan for ${date} yet. Set a time budget and press "Plan the day": the planner runs in the background and shows its best plan as it goes.`}</Alert>
      )}
      {current?.plan && <PlanResult key={`${current.id}-${running ? 'running' : 'done'}`} plan={current} body={current.plan} tiles={tilesOf(settings.data)} terminals={terminals.data ?? []} />}
    </PageBody>
  );
}
