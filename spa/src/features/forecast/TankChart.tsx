import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { LineChart } from '@mui/x-charts/LineChart';
import { useMemo } from 'react';
import { chartSeries, day } from './model';
import type { TankForecast } from './types';

const gal = (v: number | null) => (v === null ? '' : `${Math.round(v).toLocaleString('en-US')} gal`);

/**
 * The tank's level: readings as points, deliveries as triangles, the projected level with its
 * low/high band, the reorder and usable-capacity lines and the run-out day.
 */
export function TankChart({ tank, height = 320 }: { tank: TankForecast; height?: number }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const s = useMemo(() => chartSeries(tank), [tank]);
  if (!s.days.length) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
        No readings, deliveries or projection to draw yet.
      </Typography>
    );
  }
  const today = tank.projection[0]?.day ?? null;
  return (
    <Box
      data-testid="tank-chart"
      role="figure"
      aria-label={`Level history and projection of ${tank.tank.name}`}
      sx={{
        width: '100%',
        // Points only: readings and deliveries have no line between them; the band's base has no fill.
        '& .MuiLineChart-line[data-series="readings"], & .MuiLineChart-line[data-series="deliveries"]': { display: 'none' },
        '& .MuiLineChart-line[data-series="low"], & .MuiLineChart-area[data-series="low"]': { display: 'none' },
        '& .MuiLineChart-line[data-series="band"]': { display: 'none' },
        '& .MuiLineChart-area[data-series="band"]': { opacity: 0.25 },
      }}
    >
      <LineChart
        height={height}
        skipAnimation
        margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
        xAxis={[
          {
            scaleType: 'point',
            data: s.days,
            valueFormatter: (v: string, ctx) => (ctx.location === 'tick' ? v.slice(5) : day(v)),
            tickInterval: (_v: string, i: number) => i % Math.max(1, Math.ceil(s.days.length / (narrow ? 4 : 8))) === 0,
          },
        ]}
        yAxis={[{ min: 0, max: Math.ceil((s.yMax * 1.08) / 50) * 50 || 100, valueFormatter: (v: number | null) => (v === null ? '' : Math.round(v).toLocaleString('en-US')), width: 56 }]}
        series={[
          { id: 'low', data: s.low, stack: 'band', area: true, showMark: false, color: theme.palette.primary.light, valueFormatter: (v: number | null) => (v === null ? '' : `low ${gal(v)}`), disableHighlight: true },
          { id: 'band', data: s.bandWidth, stack: 'band', area: true, showMark: false, color: theme.palette.primary.light, valueFormatter: (v: number | null, { dataIndex }) => (v === null ? '' : `up to ${gal((s.low[dataIndex] ?? 0) + v)}`), label: 'Likely range' },
          { id: 'level', data: s.level, showMark: false, color: theme.palette.primary.main, valueFormatter: gal, label: 'Projected level' },
          { id: 'readings', data: s.readings, showMark: true, color: theme.palette.text.primary, valueFormatter: gal, label: 'Readings' },
          { id: 'deliveries', data: s.deliveries, showMark: true, shape: 'triangle', color: theme.palette.success.main, valueFormatter: (_v: number | null, { dataIndex }) => gal(s.deliveredGallons[dataIndex]), label: 'Deliveries' },
        ]}
        slotProps={{ legend: { position: { vertical: 'top', horizontal: 'center' } } }}
      >
        {s.usable !== null && <ChartsReferenceLine y={s.usable} label={`Usable ${gal(s.usable)}`} labelAlign="start" lineStyle={{ stroke: theme.palette.text.secondary, strokeDasharray: '6 4' }} labelStyle={{ fontSize: 11 }} />}
        {s.reorder !== null && <ChartsReferenceLine y={s.reorder} label={`Reorder ${gal(s.reorder)}`} labelAlign="start" lineStyle={{ stroke: theme.palette.warning.main, strokeDasharray: '6 4' }} labelStyle={{ fontSize: 11 }} />}
        {today && s.days.includes(today) && <ChartsReferenceLine x={today} label="Today" labelAlign="start" lineStyle={{ stroke: theme.palette.divider }} labelStyle={{ fontSize: 11 }} />}
        {s.runout && s.days.includes(s.runout) && <ChartsReferenceLine x={s.runout} label="Run-out" labelAlign="end" lineStyle={{ stroke: theme.palette.error.main }} labelStyle={{ fontSize: 11, fill: theme.palette.error.main }} />}
      </LineChart>
    </Box>
  );
}
