import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fitProjection, isPlaced, routeStyle, scaleBar, type LatLng } from './projection';
import type { MapPlace, RouteMapProps } from './types';

/** The drawing's width in CSS pixels (so markers and labels keep their size on a phone). */
function useWidth(initial: number) {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => {
      const w = Math.round(entry.contentRect.width);
      if (w > 0) setWidth(w);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}
const LATE = '#d32f2f';
/** Rings of stops the payload flags: in delivery (fixed), keep-full top-up (optional). */
export const IN_DELIVERY = '#212121';
export const KEEP_FULL = '#00796b';

function Marker({ place, x, y, color }: { place: MapPlace; x: number; y: number; color: string }) {
  if (place.kind === 'yard') {
    return (
      <g data-kind="yard">
        <title>{`Yard: ${place.label}`}</title>
        <rect x={x - 7} y={y - 7} width={14} height={14} fill="#263238" stroke="#fff" strokeWidth={1.5} />
      </g>
    );
  }
  if (place.kind === 'terminal') {
    return (
      <g data-kind="terminal">
        <title>{`Terminal: ${place.label}`}</title>
        <path d={`M ${x} ${y - 9} L ${x + 9} ${y} L ${x} ${y + 9} L ${x - 9} ${y} Z`} fill="#6a1b9a" stroke="#fff" strokeWidth={1.5} />
      </g>
    );
  }
  const r = place.seq ? 9 : 6;
  return (
    <g data-kind="stop" data-late={place.late ? 'true' : undefined} data-in-delivery={place.inDelivery ? 'true' : undefined} data-keep-full={place.keepFull ? 'true' : undefined}>
      <title>{`${place.seq ? `${place.seq}. ` : ''}${place.label}${place.late ? ' (late)' : ''}${place.inDelivery ? ' (in delivery)' : ''}${place.keepFull ? ' (keep-full top-up)' : ''}`}</title>
      {place.inDelivery && <circle cx={x} cy={y} r={r + 4} fill="none" stroke={IN_DELIVERY} strokeWidth={2.5} />}
      {place.keepFull && <circle cx={x} cy={y} r={r + 4} fill="none" stroke={KEEP_FULL} strokeWidth={2} strokeDasharray="3 2" />}
      <circle cx={x} cy={y} r={r} fill={place.late ? LATE : color} stroke="#fff" strokeWidth={place.late ? 2.5 : 1.5} />
      {place.seq ? (
        <text x={x} y={y + 3.5} textAnchor="middle" fontSize={10} fontWeight={700} fill="#fff">
          {place.seq}
        </text>
      ) : null}
    </g>
  );
}

/**
 * The routes drawn without map tiles: stops, yards and terminals at their projected coordinates, a
 * line per truck in its own colour, late stops red, orders no route takes grey. What every test and
 * screenshot shows (no tiles are fetched here).
 */
export function RouteDrawing({ routes, places = [], loose = [], highlight, title = 'Map of the routes' }: RouteMapProps) {
  const { ref, width } = useWidth(800);
  const W = Math.max(280, width);
  const H = Math.round(Math.min(560, Math.max(320, W * 0.65)));
  const all = useMemo(() => [...routes.flatMap((r) => r.path), ...places, ...loose].filter(isPlaced), [routes, places, loose]);
  const proj = useMemo(() => fitProjection(all, W, H, 28), [all, W, H]);
  const bar = scaleBar(proj.pxPerMile);
  // Orders no route takes are listed beside the map; only a route's stops without coordinates are worth a note.
  const unplaced = routes.flatMap((r) => r.path).filter((p) => p.kind === 'stop' && !isPlaced(p)).length;
  const order = routes.map((r, i) => ({ r, i })).sort((a, b) => Number(a.r.key === highlight) - Number(b.r.key === highlight));
  const pt = (p: LatLng) => proj.project(p);

  return (
    <Box data-testid="route-drawing" ref={ref}>
      <Box component="svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${routes.length} route${routes.length === 1 ? '' : 's'}`} sx={{ width: '100%', height: 'auto', display: 'block', bgcolor: '#f4f6f4', borderRadius: 1, border: 1, borderColor: 'divider' }}>
        {order.map(({ r, i }) => {
          const style = routeStyle(i);
          const pts = r.path.filter(isPlaced).map(pt);
          const dim = highlight && highlight !== r.key;
          return (
            <g key={r.key} data-route={r.key} opacity={dim ? 0.35 : 1}>
              <title>{r.name}</title>
              {pts.length > 1 && (
                <polyline points={pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')} fill="none" stroke={style.color} strokeWidth={highlight === r.key ? 5 : 3} strokeDasharray={style.dash} strokeLinejoin="round" strokeLinecap="round" />
              )}
              {r.path.filter(isPlaced).filter((p) => p.kind === 'stop').map((p) => {
                const { x, y } = pt(p);
                return <Marker key={p.key} place={p} x={x} y={y} color={style.color} />;
              })}
            </g>
          );
        })}
        {loose.filter(isPlaced).map((p) => {
          const { x, y } = pt(p);
          return (
            <g key={p.key} data-kind="loose">
              <title>{`Not planned: ${p.label}`}</title>
              <circle cx={x} cy={y} r={6} fill="#fff" stroke="#757575" strokeWidth={2} strokeDasharray="3 2" />
            </g>
          );
        })}
        {places.filter(isPlaced).map((p) => {
          const { x, y } = pt(p);
          return <Marker key={p.key} place={p} x={x} y={y} color="#263238" />;
        })}
        {all.length > 1 && (
          <g transform={`translate(${W - bar.px - 20}, ${H - 18})`}>
            <line x1={0} y1={0} x2={bar.px} y2={0} stroke="#37474f" strokeWidth={2} />
            <line x1={0} y1={-5} x2={0} y2={5} stroke="#37474f" strokeWidth={2} />
            <line x1={bar.px} y1={-5} x2={bar.px} y2={5} stroke="#37474f" strokeWidth={2} />
            <text x={bar.px / 2} y={-7} textAnchor="middle" fontSize={12} fill="#37474f">{`${bar.miles} mi`}</text>
          </g>
        )}
        {all.length === 0 && (
          <text x={W / 2} y={H / 2} textAnchor="middle" fontSize={16} fill="#616161">
            No coordinates to draw
          </text>
        )}
      </Box>
      <RouteLegend routes={routes} loose={loose} />
      {unplaced > 0 && (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
          {`${unplaced} stop${unplaced === 1 ? ' has' : 's have'} no coordinates and ${unplaced === 1 ? 'is' : 'are'} not drawn.`}
        </Typography>
      )}
    </Box>
  );
}

/** The colours of the routes and the markers' kinds (under the drawing and under the map). */
export function RouteLegend({ routes, loose = [] }: Pick<RouteMapProps, 'routes' | 'loose'>) {
  const stops = routes.flatMap((r) => r.path);
  return (
    <Box component="ul" aria-label="Legend" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, listStyle: 'none', p: 0, m: 0, mt: 1 }}>
      {routes.map((r, i) => {
        const s = routeStyle(i);
        return (
          <Box component="li" key={r.key} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Box component="svg" width={22} height={10} aria-hidden sx={{ flex: 'none' }}>
              <line x1={1} y1={5} x2={21} y2={5} stroke={s.color} strokeWidth={4} strokeDasharray={s.dash} />
            </Box>
            <Typography variant="caption">{r.name}</Typography>
          </Box>
        );
      })}
      <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Box component="svg" width={12} height={12} aria-hidden><rect x={1} y={1} width={10} height={10} fill="#263238" /></Box>
        <Typography variant="caption">Yard</Typography>
      </Box>
      <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Box component="svg" width={12} height={12} aria-hidden><path d="M 6 0 L 12 6 L 6 12 L 0 6 Z" fill="#6a1b9a" /></Box>
        <Typography variant="caption">Terminal</Typography>
      </Box>
      <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Box component="svg" width={12} height={12} aria-hidden><circle cx={6} cy={6} r={5} fill={LATE} /></Box>
        <Typography variant="caption">Late stop</Typography>
      </Box>
      {stops.some((p) => p.inDelivery) && (
        <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Box component="svg" width={14} height={14} aria-hidden><circle cx={7} cy={7} r={5.5} fill="none" stroke={IN_DELIVERY} strokeWidth={2} /></Box>
          <Typography variant="caption">In delivery</Typography>
        </Box>
      )}
      {stops.some((p) => p.keepFull) && (
        <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Box component="svg" width={14} height={14} aria-hidden><circle cx={7} cy={7} r={5.5} fill="none" stroke={KEEP_FULL} strokeWidth={2} strokeDasharray="3 2" /></Box>
          <Typography variant="caption">Keep-full top-up</Typography>
        </Box>
      )}
      {loose.some(isPlaced) && (
        <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Box component="svg" width={12} height={12} aria-hidden><circle cx={6} cy={6} r={4.5} fill="#fff" stroke="#757575" strokeWidth={2} /></Box>
          <Typography variant="caption">Not planned</Typography>
        </Box>
      )}
    </Box>
  );
}
