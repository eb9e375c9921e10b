import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { useAppDispatch, useAppSelector } from '@/lib/session/hooks';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import DateField from '@/components/resource/DateField';
import {
  DEFAULT_DAYS,
  MAX_DAYS,
  MSG_FETCH,
  MSG_PROCESS,
  dashboardApi,
  useLazyProductSummaryQuery,
  useProductSummaryQuery,
  type ProductSummary,
} from './dashboardApi';
import { byUnit, chartWidth, daysSince, formatDay, formatMoney, formatQty, toChartData, type ChartData } from './summary';

const PRESETS = [7, 14, 30, 90];
// The phone keeps product, ordered, revenue and margin (delivered is in the chart above).
const HIDE_ON_PHONE = { display: { xs: 'none', sm: 'table-cell' } };

const NEXT_STEPS = [
  { to: '/sales-order/new', title: 'Take a first order', text: 'Orders appear here once verified: quantities, revenue and margin per product and day.' },
  { to: '/company-settings', title: 'Company settings', text: 'Add your company’s address, contact details and logo. They appear on your documents and in the menu.' },
  { to: '/user-management', title: 'Invite your team', text: 'Create logins for office staff and drivers and give each the role that fits.' },
];

function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function shiftDays(iso: string, by: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
}

/** The chart data, or null (with the spec's toast) when the answer cannot be processed. */
function useChartData(summary: ProductSummary | undefined): ChartData | null {
  const processed = useMemo(() => {
    if (!summary) return { data: null, failed: false };
    try {
      return { data: toChartData(summary), failed: false };
    } catch {
      return { data: null, failed: true };
    }
  }, [summary]);
  useEffect(() => {
    if (processed.failed) toast.error(MSG_PROCESS);
  }, [processed.failed]);
  return processed.data;
}

/** A chart drawn at its box's measured width, and only once that width leaves room for its drawing area
 * (`reserved`: axes and margins), so no bar or clip path is ever given a negative width. */
function FitChart({ reserved, testId, children }: { reserved: number; testId?: string; children: (width: number) => ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [measured, setMeasured] = useState(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setMeasured(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setMeasured(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const width = chartWidth(measured, reserved);
  return (
    <Box ref={box} data-testid={testId} sx={{ width: '100%', minWidth: 0 }}>
      {width !== null && children(width)}
    </Box>
  );
}

function Tile({ label, value, detail, tone, testId }: { label: string; value: string; detail?: ReactNode; tone?: 'error' | 'success'; testId: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={testId}>
      <CardContent sx={{ p: 2, '&:last-child': { pb: 2 } }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, mt: 0.5, color: tone ? `${tone}.main` : undefined }}>
          {value}
        </Typography>
        {detail && <Box sx={{ mt: 0.75 }}>{detail}</Box>}
      </CardContent>
    </Card>
  );
}

export default function DashboardPage() {
  const dispatch = useAppDispatch();
  const profile = useAppSelector((s) => s.session.profile ?? s.login.user);
  const settings = useAppSelector((s) => s.session.settings);
  const firstName = profile?.name?.split(' ')[0];
  const company = settings?.company_name || profile?.tenant?.name;

  const [days, setDays] = useState(DEFAULT_DAYS);
  const summary = useProductSummaryQuery({ days, force_refresh: false });
  const [forceRefresh, forced] = useLazyProductSummaryQuery();
  const data = summary.data;
  const chart = useChartData(data);
  const today = data?.date_range.end_date ?? localToday();
  const from = data?.date_range.days === days ? data.date_range.start_date : shiftDays(today, 1 - days);

  useEffect(() => {
    if (summary.isError) toast.error(MSG_FETCH);
  }, [summary.isError]);

  const refresh = async () => {
    try {
      const fresh = await forceRefresh({ days, force_refresh: true }).unwrap();
      await dispatch(dashboardApi.util.upsertQueryData('productSummary', { days, force_refresh: false }, fresh));
    } catch {
      toast.error(MSG_FETCH);
    }
  };

  const pickFrom = (value: string | null) => {
    if (!value) return;
    const n = daysSince(value, today);
    if (n >= 1 && n <= MAX_DAYS) setDays(n);
  };

  const kpis = data?.kpis;
  const empty = chart !== null && chart.products.length === 0;
  const loading = summary.isLoading || (summary.isFetching && !data);

  return (
    <PageBody>
      <PageHeader
        title="Dashboard"
        subtitle={firstName ? `Welcome${company ? ` to ${company}` : ''}, ${firstName}.` : 'Welcome to FuelDesk.'}
        actions={
          <Button variant="outlined" startIcon={<Refresh />} onClick={() => void refresh()} disabled={forced.isFetching}>
            {forced.isFetching ? 'Refreshing…' : 'Refresh'}
          </Button>
        }
      />

      <Card variant="outlined" sx={{ mb: 2.5 }}>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, p: 2, '&:last-child': { pb: 2 } }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={PRESETS.includes(days) ? days : null}
            onChange={(_e, v: number | null) => v && setDays(v)}
            aria-label="Date range"
          >
            {PRESETS.map((n) => (
              <ToggleButton key={n} value={n} aria-label={`Last ${n} days`}>
                {n} days
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Box sx={{ width: 180 }}>
            <DateField label="From" value={from} onChange={pickFrom} helperText={`to today (${formatDay(today)})`} />
          </Box>
          <Typography variant="body2" color="text.secondary" data-testid="date-range">
            {formatDay(from)} – {formatDay(today)} · {days} {days === 1 ? 'day' : 'days'}
            {data ? ` · updated ${new Date(data.generated_at).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}` : ''}
          </Typography>
        </CardContent>
      </Card>

      <Grid container spacing={2} sx={{ mb: 2.5 }}>
        {loading || !kpis ? (
          [0, 1, 2, 3].map((i) => (
            <Grid key={i} size={{ xs: 6, md: 3 }}>
              <Skeleton variant="rounded" height={112} />
            </Grid>
          ))
        ) : (
          <>
            <Grid size={{ xs: 6, md: 3 }}>
              <Tile
                testId="kpi-open"
                label="Open orders"
                value={String(kpis.open_orders)}
                detail={
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                    {kpis.open_orders_by_status
                      .filter((s) => s.count > 0)
                      .map((s) => (
                        <Chip key={s.status} size="small" label={`${s.label} ${s.count}`} />
                      ))}
                  </Box>
                }
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <Tile
                testId="kpi-today"
                label="Deliveries today"
                value={`${kpis.deliveries_today.delivered} of ${kpis.deliveries_today.planned}`}
                detail={
                  <Typography variant="body2" color="text.secondary">
                    {kpis.deliveries_today.in_delivery} on the road
                  </Typography>
                }
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <Tile
                testId="kpi-late"
                label="Late orders"
                value={String(kpis.late_orders)}
                tone={kpis.late_orders > 0 ? 'error' : undefined}
                detail={
                  <Typography variant="body2" color="text.secondary">
                    planned before today, not delivered
                  </Typography>
                }
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <Tile
                testId="kpi-revenue"
                label={`Revenue, ${days} days`}
                value={chart ? formatMoney(chart.revenue) : '—'}
                detail={
                  chart && (
                    <Typography variant="body2" color="text.secondary">
                      margin {formatMoney(chart.margin)}
                      {chart.marginPct !== null ? ` (${chart.marginPct.toFixed(1)}%)` : ''}
                    </Typography>
                  )
                }
              />
            </Grid>
          </>
        )}
      </Grid>

      {summary.isError && !data && <Alert severity="error">{MSG_FETCH}</Alert>}

      {empty && (
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Card variant="outlined" sx={{ height: '100%' }} data-testid="product-summary-empty">
              <CardContent sx={{ p: 3 }}>
                <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
                  No sales in these {days} days
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 1 }}>
                  The product summary counts verified orders by their planned day: what was ordered, delivered, the revenue and
                  the margin over the buying price. Drafts and cancelled orders are left out. Pick a longer range, or take an
                  order to see it here.
                </Typography>
              </CardContent>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent sx={{ p: 3 }}>
                <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
                  Get set up
                </Typography>
                {NEXT_STEPS.map((s) => (
                  <div key={s.to}>
                    <Typography variant="subtitle2" sx={{ fontWeight: 700, mt: 2 }}>
                      {s.title}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {s.text}
                    </Typography>
                    <Button component={RouterLink} to={s.to} size="small" sx={{ mt: 0.5, px: 0 }}>
                      {s.title}
                    </Button>
                  </div>
                ))}
              </CardContent>
            </Card>
          </Grid>
        </Grid>
      )}

      {chart && chart.products.length > 0 && (
        <Grid container spacing={2.5}>
          <Grid size={{ xs: 12 }}>
            <Card variant="outlined">
              <CardContent sx={{ p: { xs: 1.5, sm: 2.5 } }}>
                <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
                  Revenue per day
                </Typography>
                <FitChart testId="revenue-chart" reserved={78}>
                  {(width) => (
                  <BarChart
                    width={width}
                    height={300}
                    xAxis={[{ scaleType: 'band', data: chart.days.map(formatDay) }]}
                    yAxis={[{ valueFormatter: (v: number | null) => (v === null ? '' : formatMoney(v)), width: 70 }]}
                    series={chart.products.map((p) => ({
                      label: p.name,
                      data: p.revenueByDay,
                      stack: 'revenue',
                      valueFormatter: (v: number | null) => (v === null ? '' : formatMoney(v)),
                    }))}
                    margin={{ left: 0, right: 8 }}
                  />
                  )}
                </FitChart>
              </CardContent>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, lg: 5 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent sx={{ p: { xs: 1.5, sm: 2.5 } }}>
                <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
                  Ordered and delivered
                </Typography>
                {/* One chart per unit: cases of DEF never share an axis with gallons of fuel. */}
                {byUnit(chart.products).map((g) => (
                  <Box key={g.unit} data-testid={`quantity-chart-${g.unit}`} sx={{ width: '100%', mt: 1 }}>
                    <Typography variant="subtitle2" color="text.secondary" component="h3">
                      In {g.label}
                    </Typography>
                    <FitChart reserved={72 + 16 + 16}>
                    {(width) => (
                    <BarChart
                      width={width}
                      height={Math.max(140, 48 * g.products.length + 70)}
                      layout="horizontal"
                      yAxis={[{ scaleType: 'band', data: g.products.map((p) => p.code || p.name), width: 72 }]}
                      xAxis={[{ label: g.label, valueFormatter: (v: number | null) => (v === null ? '' : formatQty(v)) }]}
                      series={[
                        { label: 'Ordered', data: g.products.map((p) => p.ordered), valueFormatter: (v: number | null) => (v === null ? '' : `${formatQty(v)} ${g.label}`) },
                        { label: 'Delivered', data: g.products.map((p) => p.delivered), valueFormatter: (v: number | null) => (v === null ? '' : `${formatQty(v)} ${g.label}`) },
                      ]}
                      margin={{ right: 16 }}
                    />
                    )}
                    </FitChart>
                  </Box>
                ))}
              </CardContent>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, lg: 7 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent sx={{ p: { xs: 1.5, sm: 2.5 } }}>
                <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
                  Products
                </Typography>
                <TableContainer>
                  <Table size="small" aria-label="Product summary">
                    <TableHead>
                      <TableRow>
                        <TableCell>Product</TableCell>
                        <TableCell align="right">Ordered</TableCell>
                        <TableCell align="right" sx={HIDE_ON_PHONE}>
                          Delivered
                        </TableCell>
                        <TableCell align="right">Revenue</TableCell>
                        <TableCell align="right">Margin</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {chart.products.map((p) => (
                        <TableRow key={p.id}>
                          <TableCell>
                            {p.name}
                            <Typography variant="caption" color="text.secondary" component="div">
                              {p.code} · {p.soldAs}
                            </Typography>
                          </TableCell>
                          <TableCell align="right">{formatQty(p.ordered)}</TableCell>
                          <TableCell align="right" sx={HIDE_ON_PHONE}>
                            {formatQty(p.delivered)}
                          </TableCell>
                          <TableCell align="right">{formatMoney(p.revenue)}</TableCell>
                          <TableCell align="right">
                            {p.marginPct === null ? (
                              <Typography variant="body2" color="text.secondary" title="No line of this product has a cost">
                                no cost
                              </Typography>
                            ) : (
                              <>
                                {formatMoney(p.margin)}
                                <Typography variant="caption" color="text.secondary" component="div">
                                  {p.marginPct.toFixed(1)}%{p.uncosted > 0 ? ` · ${formatMoney(p.uncosted)} without cost` : ''}
                                </Typography>
                              </>
                            )}
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              </CardContent>
            </Card>
          </Grid>
        </Grid>
      )}
    </PageBody>
  );
}
