import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ResourceListPage, StatusChip, ToolbarCombobox, ToolbarSelect, type ColumnDef } from '@/components/resource';
import { usePermissions, useSupplierOptions } from '@/lib/api/lookups';
import { BILL_STATUSES, MATCH_STATUSES, billListApi, money, type BillRow } from './purchasingApi';

const columns: ColumnDef<BillRow>[] = [
  { field: 'bill_number', headerName: 'Bill', sortField: 'bill_number', width: 130 },
  { field: 'supplier', headerName: 'Supplier', sortField: 'supplier_name', minWidth: 170, flex: 2, value: (b) => b.supplier.name },
  { field: 'purchase_order', headerName: 'PO', width: 110, hideOnPhone: true, value: (b) => b.purchase_order?.number ?? '' },
  { field: 'bill_date', headerName: 'Date', sortField: 'bill_date', width: 115, hideOnPhone: true },
  { field: 'due_date', headerName: 'Due', sortField: 'due_date', width: 115 },
  { field: 'total', headerName: 'Total', sortField: 'total', width: 130, align: 'right', value: (b) => money(b.total) },
  { field: 'match_status', headerName: 'Match', width: 150, hideOnPhone: true, value: (b) => MATCH_STATUSES[b.match_status]?.label ?? b.match_status, render: (b) => <StatusChip value={b.match_status} styles={MATCH_STATUSES} /> },
  { field: 'status', headerName: 'Status', sortField: 'status', width: 110, value: (b) => BILL_STATUSES[b.status]?.label ?? b.status, render: (b) => <StatusChip value={b.status} styles={BILL_STATUSES} /> },
];

const statusOptions = Object.entries(BILL_STATUSES).map(([value, s]) => ({ value, label: s.label }));
const matchOptions = Object.entries(MATCH_STATUSES).map(([value, s]) => ({ value, label: s.label }));

/** /purchase-order/bills: suppliers' bills (accounts payable), with their three-way match. */
export default function BillListPage() {
  const navigate = useNavigate();
  const suppliers = useSupplierOptions();
  const perms = usePermissions('bill');
  const [status, setStatus] = useState<string | null>(null);
  const [match, setMatch] = useState<string | null>(null);
  const [supplierId, setSupplierId] = useState<number | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');

  return (
    <ResourceListPage<BillRow, never, never, never>
      title="Bills"
      subtitle="Suppliers' bills, matched against purchase orders and receipts before they are approved and paid."
      singular="Bill"
      plural="bills"
      resource={billListApi}
      columns={columns}
      describe={(b) => b.bill_number}
      defaultPageSize={25}
      defaultSort={{ field: 'bill_date', order: 'desc' }}
      searchPlaceholder="Search bill number, supplier, PO"
      filters={[
        { field: 'bill_number', label: 'Bill number', type: 'text' },
        { field: 'supplier_name', label: 'Supplier', type: 'text' },
        { field: 'bill_date', label: 'Bill date', type: 'date' },
        { field: 'due_date', label: 'Due date', type: 'date' },
        { field: 'total', label: 'Total', type: 'number' },
      ]}
      extraParams={{
        status: status ?? undefined,
        match_status: match ?? undefined,
        supplier_id: supplierId ?? undefined,
        bill_date_start: start || undefined,
        bill_date_end: end || undefined,
      }}
      toolbarExtra={
        <>
          <ToolbarSelect label="Status" allLabel="All statuses" value={status} options={statusOptions} onChange={(v) => setStatus(v as string | null)} minWidth={130} />
          <ToolbarSelect label="Match" allLabel="Any match" value={match} options={matchOptions} onChange={(v) => setMatch(v as string | null)} minWidth={150} />
          <ToolbarCombobox label="Supplier" allLabel="All suppliers" value={supplierId} options={suppliers.options} loading={suppliers.loading} onChange={(v) => setSupplierId(v as number | null)} />
          <TextField size="small" type="date" label="From" value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
          <TextField size="small" type="date" label="To" value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
        </>
      }
      canCreate={false}
      canDelete={() => false}
      canEdit={() => false}
      headerActions={
        <>
          <Button startIcon={<ArrowBack />} onClick={() => navigate('/purchase-order')}>
            Purchase orders
          </Button>
          {perms.add && (
            <Button variant="contained" startIcon={<Add />} onClick={() => navigate('/purchase-order/bills/new')}>
              Enter bill
            </Button>
          )}
        </>
      }
      onRowClick={(b) => navigate(`/purchase-order/bills/${b.id}`)}
      rowActions={(b) => [{ label: 'Open', icon: <OpenInNew />, onClick: () => { navigate(`/purchase-order/bills/${b.id}`); } }]}
      exportFilename="bills"
    />
  );
}
