import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { PageSpinner } from '@/components/common/PageSpinner';
import { InvoiceDocumentActions } from './InvoiceDocumentActions';
import { SyncStateChip } from '@/components/common/SyncStateChip';
import { PostToAccountingButton } from './PostToAccountingButton';
import { StatusChip } from '@/components/resource';
import {
  INVOICE_STATUSES,
  MSG_ARCHIVE,
  MSG_ASSIGN,
  MSG_CREATE,
  MSG_FETCH,
  MSG_STATUS,
  errorText,
  money,
  qty,
  summaryToast,
  useCreateInvoiceMutation,
  useInvoiceJobLogsQuery,
  useInvoiceQuery,
  useIssueInvoiceMutation,
  useVoidInvoiceMutation,
  type Invoice,
  type InvoiceLine,
} from './invoicesApi';
import { PaymentDialog } from './PaymentsPage';

type TaxJson = { name?: string; kind?: string; rate?: string; amount?: string };

export default function InvoiceViewPage() {
  const id = Number(useParams().id);
  const q = useInvoiceQuery(id, { skip: !id });
  if (q.isLoading) return <PageSpinner />;
  if (q.error || !q.data) {
    return (
      <PageBody>
        <Alert severity="error">{errorText(q.error, MSG_FETCH)}</Alert>
        <Button component={RouterLink} to="/invoice" startIcon={<ArrowBack />} sx={{ mt: 2 }}>
          Invoices
        </Button>
      </PageBody>
    );
  }
  return <InvoiceView invoice={q.data} />;
}

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mb: 2 }} component="section" aria-label={title}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Box>
  );
}

function LinesTable({ lines, fee }: { lines: InvoiceLine[]; fee?: boolean }) {
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={fee ? 'Fees' : 'Lines'} sx={{ minWidth: 520 }}>
        <TableHead>
          <TableRow>
            <TableCell>{fee ? 'Fee' : 'Product'}</TableCell>
            <TableCell align="right">Qty</TableCell>
            <TableCell align="right">{fee ? 'Rate' : 'Unit price'}</TableCell>
            {!fee && <TableCell align="right">Tax</TableCell>}
            <TableCell align="right">Amount</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((l) => (
            <TableRow key={l.id}>
              <TableCell>
                {l.description}
                {l.product_code && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {l.product_code} · {l.unit}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">{qty(l.quantity)}</TableCell>
              <TableCell align="right">{Number(l.unit_price).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}</TableCell>
              {!fee && <TableCell align="right">{money(l.tax_amount)}</TableCell>}
              <TableCell align="right">{money(l.amount)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function InvoiceView({ invoice: inv }: { invoice: Invoice }) {
  const navigate = useNavigate();
  const [issue, issueState] = useIssueInvoiceMutation();
  const [rebuild, rebuildState] = useCreateInvoiceMutation();
  const [dialog, setDialog] = useState<'void' | 'pay' | null>(null);
  const logs = useInvoiceJobLogsQuery({ invoice_id: inv.id });
  const open = inv.status === 'issued' || inv.status === 'partially_paid';
  const can = (a: string) => inv.allowed_actions.some((m) => m.action === a);

  const doIssue = async () => {
    try {
      const r = await issue(inv.id).unwrap();
      toast.success(`Invoice ${r.invoice_no} issued`);
    } catch (e) {
      toast.error(errorText(e, MSG_STATUS));
    }
  };
  const doRebuild = async () => {
    try {
      const r = await rebuild(inv.sales_order_id).unwrap();
      toast.success(summaryToast(r.summary));
    } catch (e) {
      toast.error(errorText(e, MSG_CREATE));
    }
  };

  return (
    <PageBody>
      <PageHeader
        title={`Invoice ${inv.invoice_no}`}
        subtitle={
          <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <StatusChip value={inv.status} styles={INVOICE_STATUSES} />
            {inv.is_overdue && <Chip size="small" color="error" label={`Overdue ${inv.days_overdue} days`} />}
            {inv.sync_state && inv.sync_state !== 'not_synced' && (
              <span data-testid="invoice-sync">
                QuickBooks <SyncStateChip state={inv.sync_state} error={inv.last_sync_error} showError />
              </span>
            )}
            <span>
              {inv.customer.customer_name} · order{' '}
              <RouterLink to={`/sales-order/${inv.sales_order_id}`}>{inv.sales_order_number}</RouterLink>
            </span>
          </Box>
        }
        actions={
          <Button startIcon={<ArrowBack />} onClick={() => navigate('/invoice')}>
            Invoices
          </Button>
        }
      />
      {/* The invoice's toolbar: workflow moves, payments, stubs. The email feature adds its PDF and Email buttons here. */}
      <Box role="toolbar" aria-label="Invoice actions" data-testid="invoice-toolbar" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <InvoiceDocumentActions invoiceId={inv.id} invoiceNo={inv.invoice_no} />
        {inv.status !== 'draft' && inv.status !== 'void' && <PostToAccountingButton invoiceId={inv.id} />}
        {can('issue') && (
          <Button variant="contained" onClick={doIssue} disabled={issueState.isLoading}>
            Issue
          </Button>
        )}
        {inv.status === 'draft' && (
          <Button variant="outlined" onClick={doRebuild} disabled={rebuildState.isLoading}>
            Update from order
          </Button>
        )}
        {open && (
          <Button variant="contained" onClick={() => setDialog('pay')}>
            Record payment
          </Button>
        )}
        <Button variant="outlined" component={RouterLink} to={`/invoice/statement?customer_id=${inv.customer.id}`}>
          Statement
        </Button>
        <Button variant="outlined" onClick={() => toast.error(MSG_ASSIGN)}>
          Assign
        </Button>
        <Button variant="outlined" onClick={() => toast.error(MSG_ARCHIVE)}>
          Archive
        </Button>
        {can('void') && (
          <Button variant="outlined" color="error" onClick={() => setDialog('void')}>
            Void
          </Button>
        )}
      </Box>
      {inv.status === 'void' && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          Voided{inv.void_reason ? `: ${inv.void_reason}` : ''}.
        </Alert>
      )}
      <Section title="Details">
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 2 }}>
          <Fact label="Bill to">
            <strong>{inv.customer.customer_name}</strong>
            {inv.customer.address.map((a) => (
              <div key={a}>{a}</div>
            ))}
          </Fact>
          <Fact label="Ship to">
            {inv.ship_to ? (
              <>
                <strong>{inv.ship_to.name}</strong>
                {inv.ship_to.address.map((a) => (
                  <div key={a}>{a}</div>
                ))}
              </>
            ) : (
              '—'
            )}
          </Fact>
          <Fact label="Invoice date">{inv.invoice_date}</Fact>
          <Fact label="Due date">
            {inv.due_date} ({inv.payment_term_name || 'no term'})
          </Fact>
          <Fact label="PO">{inv.po_number || '—'}</Fact>
          <Fact label="Total">{money(inv.total)}</Fact>
          <Fact label="Paid">{money(inv.amount_paid)}</Fact>
          <Fact label="Balance">
            <strong>{money(inv.balance)}</strong>
          </Fact>
        </Box>
      </Section>
      <Section title="Lines">
        <LinesTable lines={inv.line_items} />
      </Section>
      {inv.fees.length > 0 && (
        <Section title="Fees">
          <LinesTable lines={inv.fees} fee />
        </Section>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
        <Section title="Taxes">
          {inv.taxes.length === 0 ? (
            <Typography variant="body2" color="text.secondary">No tax on this invoice.</Typography>
          ) : (
            <Table size="small" aria-label="Taxes">
              <TableBody>
                {(inv.taxes as TaxJson[]).map((t, i) => (
                  <TableRow key={i}>
                    <TableCell>{t.name ?? ''}</TableCell>
                    <TableCell align="right">{t.kind === 'percent' ? `${Number(t.rate)}%` : `${Number(t.rate)}${t.kind === 'per_unit' ? '/unit' : ''}`}</TableCell>
                    <TableCell align="right">{money(t.amount)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {inv.pricing_notes.map((n) => (
            <Typography key={n} variant="caption" color="text.secondary" component="div">
              {n}
            </Typography>
          ))}
        </Section>
        <Section title="Totals">
          <Table size="small" aria-label="Totals">
            <TableBody>
              {[
                ['Subtotal', inv.subtotal],
                ['Fees', inv.fee_total],
                ['Tax', inv.tax_total],
                ['Total', inv.total],
                ['Paid', inv.amount_paid],
                ['Balance due', inv.balance],
              ].map(([label, v]) => (
                <TableRow key={label}>
                  <TableCell sx={{ fontWeight: label === 'Total' || label === 'Balance due' ? 700 : 400 }}>{label}</TableCell>
                  <TableCell align="right" sx={{ fontWeight: label === 'Total' || label === 'Balance due' ? 700 : 400 }} data-testid={`total-${label}`}>
                    {money(v)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Section>
      </Box>
      <Section title="Payments">
        {inv.payments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">No payment applied yet.</Typography>
        ) : (
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="Payments" sx={{ minWidth: 520 }}>
              <TableHead>
                <TableRow>
                  <TableCell>Date</TableCell>
                  <TableCell>Payment</TableCell>
                  <TableCell>Method</TableCell>
                  <TableCell>Reference</TableCell>
                  <TableCell align="right">Applied</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {inv.payments.map((p) => (
                  <TableRow key={p.allocation_id}>
                    <TableCell>{p.payment_date}</TableCell>
                    <TableCell>{p.payment_number}</TableCell>
                    <TableCell>{p.payment_method || '—'}</TableCell>
                    <TableCell>{p.reference || '—'}</TableCell>
                    <TableCell align="right">{money(p.amount)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Section>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
        <Section title="Status history">
          {inv.events.map((e) => (
            <Box key={e.id} sx={{ py: 0.75 }}>
              <Typography variant="body2">
                <strong>{e.from_status ? `${INVOICE_STATUSES[e.from_status]?.label ?? e.from_status} → ` : ''}{INVOICE_STATUSES[e.to_status]?.label ?? e.to_status}</strong>{' '}
                <Typography component="span" variant="caption" color="text.secondary">
                  {e.action.replace(/_/g, ' ')}
                  {typeof e.details.payment === 'string' ? ` · ${e.details.payment}` : ''}
                  {typeof e.details.reason === 'string' ? ` · ${e.details.reason}` : ''}
                </Typography>
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {new Date(e.at).toLocaleString()} {e.by_name ? `· ${e.by_name}` : ''}
              </Typography>
              <Divider sx={{ mt: 0.75 }} />
            </Box>
          ))}
        </Section>
        <Section title="Job log">
          {logs.error ? (
            <Alert severity="error">{errorText(logs.error, 'Failed to fetch job logs')}</Alert>
          ) : (logs.data ?? []).length === 0 ? (
            <Typography variant="body2" color="text.secondary">No background job for this invoice yet (PDFs and emails appear here).</Typography>
          ) : (
            (logs.data ?? []).map((j) => (
              <Box key={j.id} sx={{ py: 0.75 }}>
                <Typography variant="body2">
                  <strong>{j.message || j.kind}</strong> · {j.status}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {new Date(j.created).toLocaleString()} {j.started_by_name ? `· ${j.started_by_name}` : ''}
                </Typography>
                {j.error && (
                  <Typography variant="caption" color="error" component="div">
                    {j.error}
                  </Typography>
                )}
                <Divider sx={{ mt: 0.75 }} />
              </Box>
            ))
          )}
        </Section>
      </Box>
      {dialog === 'void' && <VoidDialog invoice={inv} onClose={() => setDialog(null)} />}
      {dialog === 'pay' && <PaymentDialog customerId={inv.customer.id} invoice={inv} onClose={() => setDialog(null)} />}
    </PageBody>
  );
}

function VoidDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [voidInvoice, state] = useVoidInvoiceMutation();
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    try {
      await voidInvoice({ id: invoice.id, reason }).unwrap();
      toast.success(`Invoice ${invoice.invoice_no} voided`);
      onClose();
    } catch (e) {
      setError(errorText(e, MSG_STATUS));
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Void {invoice.invoice_no}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <Typography variant="body2">The number stays used; the order can be invoiced again.</Typography>
        <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} required multiline minRows={2} autoFocus />
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" color="error" onClick={submit} disabled={state.isLoading || !reason.trim()}>
          Void invoice
        </Button>
      </DialogActions>
    </Dialog>
  );
}
