import Print from '@mui/icons-material/Print';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { ToolbarCombobox } from '@/components/resource';
import { useCustomerOptions } from '@/lib/api/lookups';
import { errorText, money, useStatementQuery } from './invoicesApi';

/** A customer's statement: the balance brought forward, invoices and payments with a running balance, what is still open. */
export default function StatementPage() {
  const customers = useCustomerOptions();
  const [params, setParams] = useSearchParams();
  const customerId = Number(params.get('customer_id')) || null;
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const q = useStatementQuery({ customerId: customerId ?? 0, start, end }, { skip: !customerId });
  const s = q.data;

  return (
    <PageBody>
      <PageHeader
        title="Customer statement"
        subtitle="What a customer was billed and paid over a period, and what is still open."
        actions={
          s ? (
            <Button variant="outlined" startIcon={<Print />} onClick={() => window.print()}>
              Print
            </Button>
          ) : undefined
        }
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <ToolbarCombobox
          label="Customer"
          allLabel="Choose a customer"
          value={customerId}
          options={customers.options}
          loading={customers.loading}
          onChange={(v) => setParams(v ? { customer_id: String(v) } : {})}
        />
        <TextField size="small" type="date" label="From" value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 160 }} />
        <TextField size="small" type="date" label="To" value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 160 }} />
      </Box>
      {!customerId && <Typography color="text.secondary">Choose a customer to see their statement (the last 90 days unless you pick dates).</Typography>}
      {q.error && <Alert severity="error">{errorText(q.error, 'Failed to fetch the statement')}</Alert>}
      {s && (
        <>
          <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' }, gap: 2 }}>
            <Box>
              <Typography variant="caption" color="text.secondary">Customer</Typography>
              <Typography sx={{ fontWeight: 700 }}>{s.customer.customer_name}</Typography>
              {s.customer.address.map((a) => (
                <Typography key={a} variant="body2">{a}</Typography>
              ))}
            </Box>
            <Box>
              <Typography variant="caption" color="text.secondary">Period</Typography>
              <Typography>{s.start} – {s.end}</Typography>
            </Box>
            <Box>
              <Typography variant="caption" color="text.secondary">Brought forward</Typography>
              <Typography>{money(s.opening_balance)}</Typography>
            </Box>
            <Box>
              <Typography variant="caption" color="text.secondary">Balance at end</Typography>
              <Typography sx={{ fontWeight: 700 }} data-testid="statement-closing">{money(s.closing_balance)}</Typography>
            </Box>
            <Box>
              <Typography variant="caption" color="text.secondary">Credit on account</Typography>
              <Typography>{money(s.credit)}</Typography>
            </Box>
          </Paper>
          <Paper variant="outlined" sx={{ mb: 2 }}>
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Statement">
                <TableHead>
                  <TableRow>
                    <TableCell>Date</TableCell>
                    <TableCell>Reference</TableCell>
                    <TableCell>Description</TableCell>
                    <TableCell align="right">Charges</TableCell>
                    <TableCell align="right">Payments</TableCell>
                    <TableCell align="right">Balance</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  <TableRow>
                    <TableCell>{s.start}</TableCell>
                    <TableCell />
                    <TableCell>Balance brought forward</TableCell>
                    <TableCell />
                    <TableCell />
                    <TableCell align="right">{money(s.opening_balance)}</TableCell>
                  </TableRow>
                  {s.entries.map((e) => (
                    <TableRow key={`${e.kind}-${e.id}`}>
                      <TableCell>{e.date}</TableCell>
                      <TableCell>{e.kind === 'invoice' ? <RouterLink to={`/invoice/${e.id}`}>{e.reference}</RouterLink> : e.reference}</TableCell>
                      <TableCell>{e.description}</TableCell>
                      <TableCell align="right">{Number(e.charge) ? money(e.charge) : ''}</TableCell>
                      <TableCell align="right">{Number(e.credit) ? money(e.credit) : ''}</TableCell>
                      <TableCell align="right">{money(e.balance)}</TableCell>
                    </TableRow>
                  ))}
                  <TableRow>
                    <TableCell colSpan={3} sx={{ fontWeight: 700 }}>Totals</TableCell>
                    <TableCell align="right" sx={{ fontWeight: 700 }}>{money(s.total_charges)}</TableCell>
                    <TableCell align="right" sx={{ fontWeight: 700 }}>{money(s.total_credits)}</TableCell>
                    <TableCell align="right" sx={{ fontWeight: 700 }}>{money(s.closing_balance)}</TableCell>
                  </TableRow>
                </TableBody>
              </Table>
            </TableContainer>
          </Paper>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
            Open invoices ({money(s.open_balance)})
          </Typography>
          <Paper variant="outlined">
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Open invoices">
                <TableHead>
                  <TableRow>
                    <TableCell>Invoice</TableCell>
                    <TableCell>Date</TableCell>
                    <TableCell>Due</TableCell>
                    <TableCell align="right">Days late</TableCell>
                    <TableCell align="right">Total</TableCell>
                    <TableCell align="right">Balance</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {s.open_invoices.map((i) => (
                    <TableRow key={i.id}>
                      <TableCell><RouterLink to={`/invoice/${i.id}`}>{i.invoice_no}</RouterLink></TableCell>
                      <TableCell>{i.invoice_date}</TableCell>
                      <TableCell>{i.due_date}</TableCell>
                      <TableCell align="right">{i.days_overdue || '—'}</TableCell>
                      <TableCell align="right">{money(i.total)}</TableCell>
                      <TableCell align="right">{money(i.balance)}</TableCell>
                    </TableRow>
                  ))}
                  {s.open_invoices.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={6}>Nothing open.</TableCell>
                    </TableRow>
                  )}
                </TableBody>
              </Table>
            </TableContainer>
          </Paper>
        </>
      )}
    </PageBody>
  );
}
