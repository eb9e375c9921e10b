import Directions from '@mui/icons-material/Directions';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Stop } from './driverApi';
import type { ActionKind } from './queue';

const STATUS: Record<string, { label: string; color: 'default' | 'info' | 'warning' | 'success' }> = {
  assigned: { label: 'To deliver', color: 'info' },
  in_delivery: { label: 'In delivery', color: 'warning' },
  delivered: { label: 'Delivered', color: 'success' },
  completed: { label: 'Delivered', color: 'success' },
};

function time(t?: string | null): string {
  return t ? t.slice(0, 5) : '';
}

export interface StopCardProps {
  stop: Stop;
  index: number;
  /** Actions of this stop still in the phone's queue. */
  queued: ActionKind[];
  onStart: () => void;
  onDeliver: () => void;
}

export function StopCard({ stop, index, queued, onStart, onDeliver }: StopCardProps) {
  const deliveredHere = queued.includes('record_delivery');
  const startedHere = queued.includes('start_delivery');
  const done = stop.status === 'delivered' || stop.status === 'completed';
  const status = deliveredHere
    ? { label: 'Delivered — waiting to sync', color: 'success' as const }
    : startedHere && stop.status === 'assigned'
      ? { label: 'Started — waiting to sync', color: 'warning' as const }
      : (STATUS[stop.status] ?? { label: stop.status, color: 'default' as const });
  const window = [time(stop.planned_time_from), time(stop.planned_time_to)].filter(Boolean).join('–');
  const titleId = `stop-${stop.id}-title`;
  return (
    <Card component="article" aria-labelledby={titleId} variant="outlined" data-testid={`stop-${stop.id}`} sx={{ borderLeft: 6, borderLeftColor: done || deliveredHere ? 'success.main' : 'primary.main' }}>
      <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 0.5 }}>
          {/* The driver's own stops 1..n (the truck's stop_sequence counts other drivers' stops too); a copy
              saved on the phone before the server sent stop_number falls back to the list's order. */}
          <Chip label={`Stop ${stop.stop_number ?? index + 1}`} size="small" color="primary" data-testid="stop-number" />
          <Chip label={status.label} size="small" color={status.color} variant={done || deliveredHere ? 'filled' : 'outlined'} data-testid="stop-status" />
          {stop.eta && (
            <Chip label={`ETA ${time(stop.eta)}`} size="small" variant="outlined" data-testid="stop-eta" />
          )}
          {window && (
            <Typography variant="body2" color="text.secondary">
              {window}
            </Typography>
          )}
        </Box>
        <Typography component="h2" variant="h6" id={titleId} sx={{ lineHeight: 1.25 }}>
          {stop.customer_name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {stop.number}
          {stop.po_number ? ` · PO ${stop.po_number}` : ''}
          {stop.truck ? ` · ${stop.truck.asset_number}` : ''}
        </Typography>
        <Typography variant="body1" sx={{ mt: 0.75 }}>
          {stop.ship_to.name && stop.ship_to.name !== stop.customer_name ? `${stop.ship_to.name}: ` : ''}
          {stop.ship_to.address || 'No address on file'}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
          <Button variant="outlined" startIcon={<Directions />} href={stop.maps_url} target="_blank" rel="noopener noreferrer" sx={{ minHeight: 44 }} aria-label={`Map to ${stop.customer_name}`}>
            Map
          </Button>
          <Link href={stop.geo_url} underline="always" sx={{ py: 1.5 }}>
            Open in map app
          </Link>
        </Stack>
        {(stop.ship_to.delivery_instructions || stop.instructions || stop.ship_to.access_hours) && (
          <Typography variant="body2" sx={{ mt: 1, p: 1, bgcolor: 'action.hover', borderRadius: 1 }}>
            {[stop.ship_to.access_hours && `Access: ${stop.ship_to.access_hours}`, stop.ship_to.delivery_instructions, stop.instructions].filter(Boolean).join(' · ')}
          </Typography>
        )}
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
          {stop.lines.map((l) => (
            <Box component="li" key={l.id} sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, py: 0.5, borderTop: 1, borderColor: 'divider' }}>
              <span>
                <strong>{l.product_name}</strong>
                {l.tank ? ` → ${l.tank.name}` : ''}
              </span>
              <span style={{ whiteSpace: 'nowrap' }}>
                {l.delivered_quantity != null ? `${Number(l.delivered_quantity).toLocaleString()} / ` : ''}
                {Number(l.quantity).toLocaleString()} {l.unit}
              </span>
            </Box>
          ))}
        </Box>
        {stop.tanks.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Tanks: {stop.tanks.map((t) => `${t.name}${t.product ? ` (${t.product})` : ''}`).join(', ')}
          </Typography>
        )}
        {!done && !deliveredHere && (
          <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
            {stop.status === 'assigned' && !startedHere && (
              <Button variant="outlined" onClick={onStart} sx={{ minHeight: 48, flex: 1 }}>
                Start delivery
              </Button>
            )}
            <Button variant="contained" onClick={onDeliver} sx={{ minHeight: 48, flex: 1 }}>
              Deliver
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
