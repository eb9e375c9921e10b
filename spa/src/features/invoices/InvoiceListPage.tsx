import EventRepeat from '@mui/icons-material/EventRepeat';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { SyncStateChip, SYNC_STATES } from '@/components/common/SyncStateChip';
import { ResourceListPage, StatusChip, ToolbarCombobox, ToolbarSelect, type ColumnDef } from '@/components/resource';
import { useCustomerOptions, usePermissions } from '@/lib/api/lookups';
import { INVOICE_STATUSES, errorText, invoicesListApi, money, today, useInvoiceDayMutation, type InvoiceRow } from './invoicesApi';

const columns: ColumnDef<InvoiceRow>[] = [
  { field: 'invoice_no', headerName: 'Invoice', sortField: 'invoice_no', width: 130 },
  { field: 'customer', headerName: 'Customer', sortField: 'customer.customer_name', minWidth: 180, flex: 2, value: (i) => i.customer.customer_name },
  { field: 'sales_order_number', headerName: 'Order', width: 120, hideOnPhone: true },
  { field: 'invoice_date', headerName: 'Date', sortField: 'invoice_date', width: 115 },
  { field: 'due_date', headerName: 'Due', sortField: 'due_date', width: 115, hideOnPhone: true },
  { field: 'total', headerName: 'Total', sortField: 'total', width: 120, align: 'right', value: (i) => money(i.total) },
  { field: 'balance', headerName: 'Balance', sortField: 'balance', width: 120, align: 'right', value: (i) => money(i.balance) },
  {
    field: 'status',
    headerName: 'Status',
    sortField: 'status',
    width: 150,
    value: (i) => (i.is_overdue ? 'Overdue' : INVOICE_STATUSES[i.status]?.label ?? i.status),
    render: (i) => <StatusChip value={i.is_overdue ? 'overdue' : i.status} styles={INVOICE_STATUSES} />,
  },
  {
    field: 'sync_state',
    headerName: 'QuickBooks',
    width: 130,
    hideOnPhone: true,
    value: (i) => SYNC_STATES[i.sync_state]?.label ?? i.sync_state,
    render: (i) => <SyncStateChip state={i.sync_state} />,
  },
];

const statusOptions = Object.entries(INVOICE_STATUSES).map(([value, s]) => ({ value, label: s.label }));

export default function InvoiceListPage() {
  const navigate = useNavigate();
  const customers = useCustomerOptions();
  const perms = usePermissions('invoice');
  const [status, setStatus] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [bulk, setBulk] = useState(false);

  return (
    <>
      <ResourceListPage<InvoiceRow, never, never, never>
        title="Invoices"
        subtitle="Bill delivered orders, follow what is owed and what is late."
        singular="Invoice"
        plural="invoices"
        resource={invoicesListApi}
        columns={columns}
        describe={(i) => i.invoice_no}
        defaultPageSize={25}
        defaultSort={{ field: 'invoice_date', order: 'desc' }}
        searchPlaceholder="Search invoice, order, PO, customer"
        filters={[
          { field: 'invoice_no', label: 'Invoice number', type: 'text' },
          { field: 'customer_name', label: 'Customer', type: 'text' },
          { field: 'invoice_date', label: 'Invoice date', type: 'date' },
          { field: 'due_date', label: 'Due date', type: 'date' },
          { field: 'total', label: 'Total', type: 'number' },
          { field: 'balance', label: 'Balance', type: 'number' },
        ]}
        extraParams={{
          status: status ?? undefined,
          customer_id: customerId ?? undefined,
          invoice_date_start: start || undefined,
          invoice_date_end: end || undefined,
        }}
        toolbarExtra={
          <>
            <ToolbarSelect label="Status" allLabel="All" value={status} options={statusOptions} onChange={(v) => setStatus(v as string | null)} minWidth={140} />
            <ToolbarCombobox label="Customer" allLabel="All customers" value={customerId} options={customers.options} loading={customers.loading} onChange={(v) => setCustomerId(v as number | null)} />
            <TextField size="small" type="date" label="From" value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
            <TextField size="small" type="date" label="To" value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
          </>
        }
        canCreate={false}
        canDelete={() => false}
        canEdit={() => false}
        headerActions={
          perms.add ? (
            <Button variant="outlined" startIcon={<EventRepeat />} onClick={() => setBulk(true)}>
              Invoice a day
            </Button>
          ) : undefined
        }
        onRowClick={(i) => navigate(`/invoice/${i.id}`)}
        rowActions={(i) => [{ label: 'Open', icon: <OpenInNew />, onClick: () => { navigate(`/invoice/${i.id}`); } }]}
        exportFilename="invoices"
      />
      {bulk && <InvoiceDayDialog onClose={() => setBulk(false)} />}
    </>
  );
}

function InvoiceDayDialog({ onClose }: { onClose: () => void }) {
  const [day, setDay] = useState(today());
  const [run, state] = useInvoiceDayMutation();
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    try {
      const r = await run(day).unwrap();
      toast.success(`Invoicing ${r.orders} delivered orders of ${day}: follow it in the job log`);
      onClose();
    } catch (e) {
      setError(errorText(e, 'Failed to start invoicing'));
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Invoice a day's deliveries</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <Typography variant="body2" color="text.secondary">
          Every order delivered that day gets its invoice (drafts are brought up to date, issued invoices are left alone). It runs in the background; the job log shows its progress.
        </Typography>
        <TextField type="date" label="Delivery day" value={day} onChange={(e) => setDay(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={state.isLoading || !day}>
          Start
        </Button>
      </DialogActions>
    </Dialog>
  );
}
