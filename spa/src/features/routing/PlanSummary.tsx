import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { diffRows, diffSentence, type Totals } from './planFormat';

const fmt = (n: number | null, digits: number) => (n === null ? '—' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const DIGITS = { stops: 0, miles: 1, hours: 1, trucks_used: 0, late_stops: 0 } as const;

/** Totals of the proposal beside the current plan's, with the difference, and one sentence. */
export function PlanSummary({ totals, current, unplanned }: { totals: Totals; current: Totals | null; unplanned: number }) {
  const rows = diffRows(totals, current);
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="plan-summary" component="section" aria-label="Plan summary">
      <Typography variant="body1" sx={{ fontWeight: 600, mb: 1 }} data-testid="plan-diff-sentence">
        {diffSentence(rows)}
        {unplanned > 0 ? ` ${unplanned} order${unplanned === 1 ? ' is' : 's are'} not planned (reasons below).` : ''}
      </Typography>
      <Box component="table" sx={{ width: '100%', borderCollapse: 'collapse', fontVariantNumeric: 'tabular-nums', tableLayout: 'fixed', '& th, & td': { py: 0.5, px: 1, textAlign: 'right', borderBottom: 1, borderColor: 'divider' }, '& tr > :first-child': { textAlign: 'left', pl: 0 } }}>
        <thead>
          <tr>
            <Typography component="th" variant="caption" color="text.secondary" scope="col">
              Metric
            </Typography>
            <Typography component="th" variant="caption" color="text.secondary" scope="col">
              Proposed
            </Typography>
            <Typography component="th" variant="caption" color="text.secondary" scope="col">
              Current
            </Typography>
            <Typography component="th" variant="caption" color="text.secondary" scope="col">
              Difference
            </Typography>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-testid={`plan-total-${r.key}`}>
              <Typography component="th" variant="body2" scope="row" sx={{ fontWeight: 400 }}>
                {r.label}
              </Typography>
              <Typography component="td" variant="body2" sx={{ fontWeight: 700 }}>
                {fmt(r.proposed, DIGITS[r.key])}
              </Typography>
              <Typography component="td" variant="body2">
                {fmt(r.current, DIGITS[r.key])}
              </Typography>
              <Typography component="td" variant="body2" sx={{ fontWeight: 600, color: r.better === null ? 'text.secondary' : r.better ? 'success.dark' : 'error.main' }}>
                {r.delta === null ? '—' : r.delta === 0 ? '0' : `${r.delta > 0 ? '+' : '−'}${fmt(Math.abs(r.delta), DIGITS[r.key])}`}
              </Typography>
            </tr>
          ))}
        </tbody>
      </Box>
    </Paper>
  );
}
