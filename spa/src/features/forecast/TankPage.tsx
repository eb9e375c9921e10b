import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { PageHeader } from '@/components/common/PageHeader';
import { useTankForecastQuery, type TankForecast } from './forecastApi';
import { day, fitLines, gallons, num, percent } from './model';
import { TankChart } from './TankChart';
import { OverrideForm, ReadingForm, SettingsForm } from './TankForms';

function Stat({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <Box sx={{ flex: '1 1 150px', border: 1, borderColor: 'divider', borderRadius: 2, px: 2, py: 1.25 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" sx={{ fontWeight: 700, lineHeight: 1.3 }}>
        {value}
      </Typography>
      {detail && (
        <Typography variant="caption" color="text.secondary">
          {detail}
        </Typography>
      )}
    </Box>
  );
}

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 1.5, sm: 2.5 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
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

function TankBody({ tank }: { tank: TankForecast }) {
  const fit = fitLines(tank.fit);
  // The level is today's estimate, projected from the last level known (a reading or a fill).
  const today = tank.projection[0]?.day ?? null;
  const estimated = tank.level_as_of && tank.level_as_of !== today ? `estimated from ${day(tank.level_as_of)}` : tank.level_as_of ? 'read today' : null;
  const levelDetail = [num(tank.level_percent) !== null ? `${percent(tank.level_percent)} full` : null, estimated].filter(Boolean).join(' · ');
  return (
    <>
      {tank.cannot_forecast && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="cannot-forecast">
          <AlertTitle>Cannot forecast this tank</AlertTitle>
          {tank.cannot_forecast.charAt(0).toUpperCase() + tank.cannot_forecast.slice(1)}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
        <Stat label="Level now" value={gallons(tank.level_gallons)} detail={levelDetail || undefined} />
        <Stat label="Usable capacity" value={gallons(tank.usable_gallons)} detail={tank.tank.capacity ? `of ${gallons(tank.tank.capacity)} (fill to ${percent(tank.settings.max_fill_percent)})` : 'No capacity set'} />
        <Stat label="Reaches reorder" value={day(tank.reorder_date)} detail={tank.reorder_gallons ? `at ${gallons(tank.reorder_gallons)}` : undefined} />
        <Stat label="Runs out" value={tank.runout_date ? day(tank.runout_date) : '—'} detail={tank.runout_date ? (tank.runout_early || tank.runout_late ? `between ${day(tank.runout_early ?? tank.runout_date)} and ${day(tank.runout_late ?? tank.runout_date)}` : undefined) : tank.projection.length ? 'Not within the horizon' : undefined} />
        <Stat label="Suggested delivery" value={tank.suggested_date ? day(tank.suggested_date) : '—'} detail={tank.suggested_date ? [gallons(tank.suggested_gallons), tank.confidence ? `${tank.confidence} confidence` : null].filter(Boolean).join(' · ') : undefined} />
      </Box>
      {tank.reason && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="tank-reason">
          {tank.reason}
        </Typography>
      )}
      <Grid container spacing={2}>
        <Grid size={12}>
          <Section title="Level and projection">
            <TankChart tank={tank} />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Section title="Usage" action={tank.fit?.overridden ? <Chip size="small" color="info" label="Overridden" /> : tank.fit?.method ? <Chip size="small" variant="outlined" label={tank.fit.method} /> : null}>
            {tank.fit?.cannot_fit && (
              <Alert severity="info" sx={{ mb: 1.5 }}>
                {tank.fit.cannot_fit}
              </Alert>
            )}
            {fit.length ? (
              <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.75 }} data-testid="fit">
                {fit.map((l) => (
                  <Box key={l.label} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {l.label}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
                      {l.value}
                    </Typography>
                  </Box>
                ))}
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary">
                No usage estimate yet.
              </Typography>
            )}
            {tank.fit?.notes?.length ? (
              <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5, color: 'text.secondary', fontSize: 13 }} aria-label="Notes on the fit">
                {tank.fit.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </Box>
            ) : null}
            <Divider sx={{ my: 2 }} />
            <OverrideForm key={JSON.stringify(tank.settings)} tank={tank} />
            <Divider sx={{ my: 2 }} />
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              Add a reading
            </Typography>
            <ReadingForm assetId={tank.tank.id} />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Section title="Forecast settings">
            <SettingsForm key={JSON.stringify(tank.settings)} tank={tank} />
          </Section>
        </Grid>
      </Grid>
    </>
  );
}

/** /forecast/tank/:assetId: the tank's level history and projection, its usage fit and settings. */
export default function TankPage() {
  const { assetId } = useParams();
  const id = Number(assetId);
  const valid = Number.isInteger(id) && id > 0;
  const q = useTankForecastQuery(id, { skip: !valid });
  const tank = q.data;
  const title = tank ? tank.tank.name : 'Tank forecast';
  return (
    <>
      <PageHeader
        title={title}
        subtitle={
          tank ? (
            <>
              <Link component={RouterLink} to={`/customer/${tank.tank.customer_id}`} underline="hover">
                {tank.tank.customer_name}
              </Link>
              {tank.tank.ship_to_name ? ` · ${tank.tank.ship_to_name}` : ''}
              {tank.tank.product_name ? ` · ${tank.tank.product_name}` : ''}
              {tank.tank.serial_number ? ` · serial ${tank.tank.serial_number}` : ''}
              {tank.settings.program === 'will_call' ? ' · will call' : ' · keep full'}
            </>
          ) : undefined
        }
        actions={
          <>
            {tank?.open_order_id && (
              <Button component={RouterLink} to={`/sales-order/${tank.open_order_id}`} variant="outlined">
                {tank.open_order_number ? `Order ${tank.open_order_number}` : 'Open order'}
              </Button>
            )}
            <Button component={RouterLink} to="/forecast" startIcon={<ArrowBack />}>
              Due list
            </Button>
          </>
        }
      />
      {!valid ? (
        <Alert severity="error">This is not a tank’s address.</Alert>
      ) : q.isLoading ? (
        <Box data-testid="tank-loading">
          <Skeleton variant="rounded" height={80} sx={{ mb: 2 }} />
          <Skeleton variant="rounded" height={320} />
        </Box>
      ) : q.isError || !tank ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => q.refetch()}>
              Try again
            </Button>
          }
        >
          {(q.error as { message?: string })?.message || 'Failed to fetch the tank forecast'}
        </Alert>
      ) : (
        <TankBody tank={tank} />
      )}
    </>
  );
}
