import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { matchTones, type Tone } from './matchView';
import { price, qty, signed, type Bill } from './purchasingApi';

// The warning Alert's colours (the palette's orange is too light for text: WCAG AA).
const toneSx = (tone: Tone) => (tone === 'bad' ? { bgcolor: '#fff4e5', color: '#663c00', fontWeight: 700 } : {});

function shortResult(l: { within_tolerance: boolean; purchase_order_line_id: number | null; quantity_ok: boolean; price_ok: boolean }): string {
  if (l.within_tolerance) return 'Within tolerance';
  if (l.purchase_order_line_id === null) return 'Not on the order';
  return `Out: ${[!l.quantity_ok && 'quantity', !l.price_ok && 'price'].filter(Boolean).join(', ')}`;
}

/** The three-way match: per bill line, ordered / received / billed and the variances, out of tolerance highlighted. */
export function BillMatchTable({ match }: { match: Bill['match'] }) {
  if (match.status === 'no_po') {
    return (
      <Typography variant="body2" color="text.secondary">
        This bill names no purchase order: there is nothing to match. Choose its purchase order to check it against what was ordered and received.
      </Typography>
    );
  }
  const t = match.tolerances;
  return (
    <>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        Tolerances: quantity ±{Number(t.quantity_tolerance_percent)} % of the received quantity not yet billed; price ±{price(t.price_tolerance_per_unit)} per unit
        {Number(t.price_tolerance_percent) > 0 ? ` or ${Number(t.price_tolerance_percent)} % of the cost` : ''}.
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Three-way match">
          <TableHead>
            <TableRow>
              <TableCell>Line</TableCell>
              <TableCell align="right">Ordered</TableCell>
              <TableCell align="right">Received</TableCell>
              <TableCell align="right">Billed</TableCell>
              <TableCell align="right">Qty variance</TableCell>
              <TableCell align="right">PO cost</TableCell>
              <TableCell align="right">Billed price</TableCell>
              <TableCell align="right">Price variance</TableCell>
              <TableCell>Result</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {match.lines.map((l) => {
              const tones = matchTones(l);
              return (
                <TableRow key={l.bill_line_id} data-testid="match-line" data-ok={l.within_tolerance ? 'yes' : 'no'}>
                  <TableCell sx={{ minWidth: 110 }}>
                    {l.position}. {l.description}
                  </TableCell>
                  <TableCell align="right">{qty(l.ordered_quantity)}</TableCell>
                  <TableCell align="right">
                    {qty(l.received_quantity)}
                    {l.billed_elsewhere && Number(l.billed_elsewhere) > 0 ? (
                      <Typography variant="caption" component="div" color="text.secondary">
                        {qty(l.billed_elsewhere)} billed before
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell align="right">{qty(l.billed_quantity)}</TableCell>
                  <TableCell align="right" sx={toneSx(tones.quantity)}>
                    {signed(l.quantity_variance)}
                    {l.quantity_variance_percent !== null ? ` (${signed(l.quantity_variance_percent, 2)} %)` : ''}
                  </TableCell>
                  <TableCell align="right">{price(l.unit_cost)}</TableCell>
                  <TableCell align="right">{price(l.billed_unit_price)}</TableCell>
                  <TableCell align="right" sx={toneSx(tones.price)}>
                    {signed(l.price_variance, 4)}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap', ...(tones.row === 'bad' ? toneSx('bad') : {}) }}>{shortResult(l)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      {match.lines
        .filter((l) => !l.within_tolerance)
        .map((l) => (
          <Typography key={l.bill_line_id} variant="body2" sx={{ mt: 1, color: '#663c00' }} data-testid="match-reason">
            Line {l.position}: {l.reason}.
          </Typography>
        ))}
    </>
  );
}
