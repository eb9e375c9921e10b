import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { ToolbarCombobox } from '@/components/resource';
import { useCustomerOptions, usePaymentMethodOptions, usePermissions } from '@/lib/api/lookups';
import {
  errorText,
  money,
  today,
  useAllocatePaymentMutation,
  useDeletePaymentMutation,
  useOpenInvoicesQuery,
  usePaymentsQuery,
  useRecordPaymentMutation,
  type Invoice,
} from './invoicesApi';
import { followedApply } from './paymentApply';

// A phone keeps invoice, balance and Apply in view: the due date moves under the invoice number.
const DUE_CELL = { display: { xs: 'none', sm: 'table-cell' } } as const;

const cents = (v: string | number) => Math.round(Number(v || 0) * 100);

/** Record a payment: customer, date, amount, method, reference; applied oldest due first or as the user splits it. */
export function PaymentDialog({ customerId: fixedCustomer, invoice, onClose }: { customerId?: number; invoice?: Invoice; onClose: () => void }) {
  const customers = useCustomerOptions();
  const methods = usePaymentMethodOptions();
  const [customerId, setCustomerId] = useState<number | null>(fixedCustomer ?? null);
  const [date, setDate] = useState(today());
  const [amount, setAmount] = useState(invoice ? String(Number(invoice.balance)) : '');
  const [methodId, setMethodId] = useState<number | ''>('');
  const [reference, setReference] = useState('');
  const [mode, setMode] = useState<'auto' | 'choose'>(invoice ? 'choose' : 'auto');
  const [split, setSplit] = useState<Record<number, string>>(invoice ? { [invoice.id]: String(Number(invoice.balance)) } : {});
  // The invoice's Apply follows the amount received until the user edits an Apply amount.
  const [applyEdited, setApplyEdited] = useState(false);
  const changeAmount = (value: string) => {
    setAmount(value);
    if (invoice && !applyEdited) setSplit((s) => ({ ...s, [invoice.id]: followedApply(value, invoice.balance) }));
  };
  const open = useOpenInvoicesQuery(customerId ?? 0, { skip: !customerId });
  const [record, state] = useRecordPaymentMutation();
  const [error, setError] = useState<string | null>(null);
  const allocated = useMemo(() => Object.values(split).reduce((t, v) => t + cents(v), 0), [split]);
  const credit = cents(amount) - (mode === 'auto' ? Math.min(cents(amount), (open.data ?? []).reduce((t, i) => t + cents(i.balance), 0)) : allocated);

  const submit = async () => {
    setError(null);
    if (!customerId) return setError('Choose the customer who paid.');
    if (cents(amount) <= 0) return setError('Enter the amount received.');
    const allocations =
      mode === 'auto'
        ? null
        : Object.entries(split)
            .filter(([, v]) => cents(v) > 0)
            .map(([id, v]) => ({ invoice_id: Number(id), amount: v }));
    if (mode === 'choose' && allocated > cents(amount)) return setError('The amounts applied exceed the payment.');
    try {
      const r = await record({
        customer_id: customerId,
        payment_date: date,
        amount,
        payment_method_id: methodId || null,
        reference,
        notes: '',
        allocations,
      }).unwrap();
      toast.success(r.message);
      onClose();
    } catch (e) {
      setError(errorText(e, 'Failed to record payment'));
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>Record a payment</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
          {fixedCustomer ? (
            <TextField label="Customer" value={invoice?.customer.customer_name ?? ''} disabled />
          ) : (
            <ToolbarCombobox label="Customer" allLabel="Choose a customer" value={customerId} options={customers.options} loading={customers.loading} onChange={(v) => { setCustomerId(v as number | null); setSplit({}); }} />
          )}
          <TextField type="date" label="Payment date" value={date} onChange={(e) => setDate(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} size="small" />
          <TextField type="number" label="Amount received" value={amount} onChange={(e) => changeAmount(e.target.value)} slotProps={{ htmlInput: { min: 0, step: '0.01', 'aria-label': 'Amount received' } }} size="small" />
          <TextField select label="Payment method" value={methodId} onChange={(e) => setMethodId(e.target.value === '' ? '' : Number(e.target.value))} size="small">
            <MenuItem value="">
              <em>None</em>
            </MenuItem>
            {methods.options.map((m) => (
              <MenuItem key={m.value} value={m.value}>
                {m.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField label="Reference (check no., transfer id)" value={reference} onChange={(e) => setReference(e.target.value)} size="small" />
        </Box>
        {customerId && (
          <>
            <RadioGroup row value={mode} onChange={(e) => setMode(e.target.value as 'auto' | 'choose')}>
              <FormControlLabel value="auto" control={<Radio />} label="Apply to the oldest due invoices first" />
              <FormControlLabel value="choose" control={<Radio />} label="Choose the invoices" />
            </RadioGroup>
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Open invoices">
                <TableHead>
                  <TableRow>
                    <TableCell>Invoice</TableCell>
                    <TableCell sx={DUE_CELL}>Due</TableCell>
                    <TableCell align="right">Balance</TableCell>
                    {mode === 'choose' && <TableCell align="right">Apply</TableCell>}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {(open.data ?? []).map((i) => (
                    <TableRow key={i.id}>
                      <TableCell>
                        {i.invoice_no}
                        <Typography variant="caption" component="div" sx={{ display: { xs: 'block', sm: 'none' }, color: i.is_overdue ? 'error.main' : 'text.secondary' }}>
                          due {i.due_date}
                        </Typography>
                      </TableCell>
                      <TableCell sx={{ ...DUE_CELL, color: i.is_overdue ? 'error.main' : undefined }}>{i.due_date}</TableCell>
                      <TableCell align="right">{money(i.balance)}</TableCell>
                      {mode === 'choose' && (
                        <TableCell align="right" sx={{ width: { xs: 120, sm: 140 }, pr: { xs: 0, sm: 2 } }}>
                          <TextField
                            size="small"
                            type="number"
                            value={split[i.id] ?? ''}
                            onChange={(e) => {
                              setApplyEdited(true);
                              setSplit((s) => ({ ...s, [i.id]: e.target.value }));
                            }}
                            slotProps={{ htmlInput: { min: 0, step: '0.01', 'aria-label': `Apply to ${i.invoice_no}` } }}
                          />
                        </TableCell>
                      )}
                    </TableRow>
                  ))}
                  {open.data?.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={4}>No open invoice: the whole payment is kept as credit.</TableCell>
                    </TableRow>
                  )}
                </TableBody>
              </Table>
            </TableContainer>
            <Typography variant="body2" color={credit < 0 ? 'error' : 'text.secondary'}>
              {credit > 0 ? `${money(credit / 100)} will be kept as the customer's credit.` : credit < 0 ? 'The amounts applied exceed the payment.' : 'The whole payment is applied.'}
            </Typography>
          </>
        )}
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={state.isLoading}>
          Record payment
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function PaymentsPage() {
  const customers = useCustomerOptions();
  const perms = usePermissions('payment');
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [withCredit, setWithCredit] = useState(false);
  const [dialog, setDialog] = useState(false);
  const q = usePaymentsQuery({ customer_id: customerId ?? undefined, with_credit: withCredit || undefined, size: 100, page: 1 });
  const [allocate] = useAllocatePaymentMutation();
  const [remove] = useDeletePaymentMutation();

  const apply = async (id: number) => {
    try {
      const p = await allocate({ id }).unwrap();
      toast.success(`Credit of ${p.number} applied: ${money(p.unapplied)} left`);
    } catch (e) {
      toast.error(errorText(e, 'Failed to apply the credit'));
    }
  };
  const del = async (id: number, number: string) => {
    if (!window.confirm(`Delete payment ${number}? Its amounts are taken back from the invoices.`)) return;
    try {
      await remove(id).unwrap();
      toast.success('Payment deleted successfully');
    } catch (e) {
      toast.error(errorText(e, 'Failed to delete payment'));
    }
  };

  return (
    <PageBody>
      <PageHeader
        title="Payments"
        subtitle="Money received, where it went, and the credit customers have on account."
        actions={
          perms.add ? (
            <Button variant="contained" startIcon={<Add />} onClick={() => setDialog(true)}>
              Record payment
            </Button>
          ) : undefined
        }
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2, alignItems: 'center' }}>
        <ToolbarCombobox label="Customer" allLabel="All customers" value={customerId} options={customers.options} loading={customers.loading} onChange={(v) => setCustomerId(v as number | null)} />
        <FormControlLabel control={<Switch checked={withCredit} onChange={(e) => setWithCredit(e.target.checked)} />} label="With unapplied credit" />
      </Box>
      {q.error && <Alert severity="error">{errorText(q.error, 'Failed to fetch payments')}</Alert>}
      <Paper variant="outlined">
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Payments">
            <TableHead>
              <TableRow>
                <TableCell>Payment</TableCell>
                <TableCell>Date</TableCell>
                <TableCell>Customer</TableCell>
                <TableCell>Method / ref.</TableCell>
                <TableCell>Applied to</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell align="right">Credit</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {(q.data?.items ?? []).map((p) => (
                <TableRow key={p.id}>
                  <TableCell>{p.number}</TableCell>
                  <TableCell>{p.payment_date}</TableCell>
                  <TableCell>{p.customer.customer_name}</TableCell>
                  <TableCell>{[p.payment_method, p.reference].filter(Boolean).join(' · ') || '—'}</TableCell>
                  <TableCell>
                    {p.allocations.map((a) => (
                      <div key={a.id}>
                        <RouterLink to={`/invoice/${a.invoice_id}`}>{a.invoice_no}</RouterLink> {money(a.amount)}
                      </div>
                    ))}
                  </TableCell>
                  <TableCell align="right">{money(p.amount)}</TableCell>
                  <TableCell align="right">{Number(p.unapplied) > 0 ? money(p.unapplied) : '—'}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {Number(p.unapplied) > 0 && perms.change && (
                      <Button size="small" onClick={() => apply(p.id)}>
                        Apply credit
                      </Button>
                    )}
                    {perms.delete && (
                      <Button size="small" color="error" onClick={() => del(p.id, p.number)}>
                        Delete
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {q.data?.items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={8}>No payment recorded.</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      {dialog && <PaymentDialog onClose={() => setDialog(false)} />}
    </PageBody>
  );
}
