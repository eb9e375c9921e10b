import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { useProductOptions, useSupplierOptions } from '@/lib/api/lookups';
import { MSG_VERIFY, useVerifyMessageMutation, reviewFromParse, reviewTotals, type BillReview, type BillReviewLine, type InboxMessage, type ParsedBillResult } from './inboxApi';
import { errorText } from './format';

export function BillVerify({ message }: { message: InboxMessage }) {
  const proposal = message.bill_proposal as { result?: ParsedBillResult; draft?: { supplier_id?: number | null } } | null;
  const result = proposal?.result;
  const [review, setReview] = useState<BillReview>(() => reviewFromParse(result, proposal?.draft?.supplier_id ?? message.supplier_id ?? null));
  const suppliers = useSupplierOptions();
  const products = useProductOptions();
  const [verify, state] = useVerifyMessageMutation();
  const confidence = (name: string) => result?.fields?.[name]?.confidence ?? 1;
  const low = (name: string) => (confidence(name) < 0.8 ? 'Low confidence: check it' : undefined);
  const setLine = (i: number, patch: Partial<BillReviewLine>) =>
    setReview((r) => ({ ...r, lines: (r.lines ?? []).map((l, j) => (j === i ? { ...l, ...patch } : l)) }));
  if (!proposal) return <Alert severity="warning">{message.proposal_error || 'The invoice could not be read: dismiss it and enter the bill by hand.'}</Alert>;
  const totals = reviewTotals(review);
  const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  const reason = (review.total_override_reason ?? '').trim();
  const submit = async () => {
    try {
      const bill = { ...review, total_override_reason: totals.agree ? '' : reason };
      toast.success((await verify({ id: message.id, body: { verified_as: 'bill', bill } }).unwrap()).message);
    } catch (err) {
      toast.error(errorText(err, MSG_VERIFY));
    }
  };
  return (
    <Stack spacing={2}>
      <Typography variant="body2">Read by the bill parser from the attached PDF. Fields marked in orange have a low confidence: check them against the PDF.</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField select label="Supplier" value={review.supplier_id ?? ''} onChange={(e) => setReview({ ...review, supplier_id: Number(e.target.value) || null })} fullWidth helperText={low('supplier')} color={low('supplier') ? 'warning' : undefined} focused={!!low('supplier') || undefined}>
          {suppliers.options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
        </TextField>
        <TextField label="Bill number" value={review.bill_number} onChange={(e) => setReview({ ...review, bill_number: e.target.value })} fullWidth helperText={low('bill_number')} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField label="Bill date" type="date" value={review.bill_date ?? ''} onChange={(e) => setReview({ ...review, bill_date: e.target.value || null })} slotProps={{ inputLabel: { shrink: true } }} fullWidth helperText={low('bill_date')} />
        <TextField label="Due date" type="date" value={review.due_date ?? ''} onChange={(e) => setReview({ ...review, due_date: e.target.value || null })} slotProps={{ inputLabel: { shrink: true } }} fullWidth helperText={low('due_date') ?? 'Empty: from the payment term'} />
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Bill lines" sx={{ minWidth: 560 }}>
          <TableHead>
            <TableRow>
              <TableCell>Product</TableCell>
              <TableCell align="right">Net gal</TableCell>
              <TableCell align="right">Unit price</TableCell>
              <TableCell align="right">Amount</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(review.lines ?? []).map((l, i) => (
              <TableRow key={i}>
                <TableCell>
                  <TextField select size="small" value={l.product_id ?? ''} onChange={(e) => setLine(i, { product_id: Number(e.target.value) || null })} sx={{ minWidth: 180 }} helperText={l.description || undefined}>
                    {products.options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
                  </TextField>
                </TableCell>
                <TableCell align="right">
                  <TextField size="small" value={l.net ?? ''} onChange={(e) => setLine(i, { net: e.target.value || null })} sx={{ width: 110 }} />
                </TableCell>
                <TableCell align="right">
                  <TextField size="small" value={l.unit_price ?? ''} onChange={(e) => setLine(i, { unit_price: e.target.value || null })} sx={{ width: 110 }} />
                </TableCell>
                <TableCell align="right">{l.amount ?? '—'}</TableCell>
              </TableRow>
            ))}
            {(review.taxes ?? []).map((t, i) => (
              <TableRow key={`t${i}`}>
                <TableCell colSpan={3}>{t.name}</TableCell>
                <TableCell align="right">{String(t.amount)}</TableCell>
              </TableRow>
            ))}
            {review.total != null && (
              <TableRow>
                <TableCell colSpan={3} sx={{ fontWeight: 600 }}>Total on the invoice</TableCell>
                <TableCell align="right" sx={{ fontWeight: 600 }}>{String(review.total)}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Box>
      {!totals.agree && totals.total != null && (
        <Alert severity="warning" data-testid="totals-disagree">
          <Typography variant="body2" sx={{ mb: 1.5 }}>
            The lines and taxes come to <b>{usd(totals.sum)}</b> but the invoice&apos;s total is <b>{usd(totals.total)}</b> (a difference of {usd(totals.total - totals.sum)}). Open
            the PDF in the bill parser to correct them, or create the bill anyway and say why: the reason is kept on the bill.
          </Typography>
          <TextField
            size="small"
            fullWidth
            multiline
            minRows={2}
            label="Reason for the difference"
            value={review.total_override_reason ?? ''}
            onChange={(e) => setReview({ ...review, total_override_reason: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'override-reason' } }}
            sx={{ bgcolor: 'background.paper' }}
          />
        </Alert>
      )}
      <Box>
        <Button
          variant="contained"
          color={totals.agree ? 'primary' : 'warning'}
          disabled={state.isLoading || !review.supplier_id || !review.bill_number || (!totals.agree && !reason)}
          onClick={submit}
        >
          {totals.agree ? 'Create bill' : 'Create bill anyway'}
        </Button>
      </Box>
    </Stack>
  );
}
