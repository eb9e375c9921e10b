import Add from '@mui/icons-material/Add';
import OpenInNew from '@mui/icons-material/OpenInNew';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ResourceListPage, StatusChip, ToolbarCombobox, ToolbarSelect, type ColumnDef } from '@/components/resource';
import { usePermissions, useSupplierOptions, useTerminalOptions } from '@/lib/api/lookups';
import { PO_STATUSES, money, poListApi, type PoRow } from './purchasingApi';

const columns: ColumnDef<PoRow>[] = [
  { field: 'number', headerName: 'PO', sortField: 'number', width: 120 },
  { field: 'supplier', headerName: 'Supplier', sortField: 'supplier_name', minWidth: 170, flex: 2, value: (o) => o.supplier.name },
  { field: 'terminal', headerName: 'Terminal', sortField: 'terminal_name', minWidth: 150, flex: 1, hideOnPhone: true, value: (o) => o.terminal?.name ?? '' },
  { field: 'order_date', headerName: 'Ordered', sortField: 'order_date', width: 120 },
  { field: 'reference', headerName: 'Reference', width: 120, hideOnPhone: true },
  { field: 'total', headerName: 'Total', sortField: 'total', width: 130, align: 'right', value: (o) => money(o.total) },
  { field: 'status', headerName: 'Status', sortField: 'status', width: 120, value: (o) => PO_STATUSES[o.status]?.label ?? o.status, render: (o) => <StatusChip value={o.status} styles={PO_STATUSES} /> },
];

const statusOptions = Object.entries(PO_STATUSES).map(([value, s]) => ({ value, label: s.label }));

/** /purchase-order: the purchase orders, filtered by status, supplier, terminal and order dates. */
export default function PurchaseOrderListPage() {
  const navigate = useNavigate();
  const suppliers = useSupplierOptions();
  const terminals = useTerminalOptions();
  const perms = usePermissions('purchase_order');
  const billPerms = usePermissions('bill');
  const [status, setStatus] = useState<string | null>(null);
  const [supplierId, setSupplierId] = useState<number | null>(null);
  const [terminalId, setTerminalId] = useState<number | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');

  return (
    <ResourceListPage<PoRow, never, never, never>
      title="Purchase orders"
      subtitle="Order product from suppliers, receive the lifts (bills of lading) and match the suppliers' bills."
      singular="Purchase order"
      plural="purchase orders"
      resource={poListApi}
      columns={columns}
      describe={(o) => o.number}
      defaultPageSize={10}
      defaultSort={{ field: 'order_date', order: 'desc' }}
      searchPlaceholder="Search PO number, reference, supplier, terminal"
      filters={[
        { field: 'number', label: 'PO number', type: 'text' },
        { field: 'supplier_name', label: 'Supplier', type: 'text' },
        { field: 'terminal_name', label: 'Terminal', type: 'text' },
        { field: 'order_date', label: 'Order date', type: 'date' },
        { field: 'total', label: 'Total', type: 'number' },
      ]}
      extraParams={{
        status: status ?? undefined,
        supplier_id: supplierId ?? undefined,
        terminal_id: terminalId ?? undefined,
        order_date_start: start || undefined,
        order_date_end: end || undefined,
      }}
      toolbarExtra={
        <>
          <ToolbarSelect label="Status" allLabel="All statuses" value={status} options={statusOptions} onChange={(v) => setStatus(v as string | null)} minWidth={140} />
          <ToolbarCombobox label="Supplier" allLabel="All suppliers" value={supplierId} options={suppliers.options} loading={suppliers.loading} onChange={(v) => setSupplierId(v as number | null)} />
          <ToolbarCombobox label="Terminal" allLabel="All terminals" value={terminalId} options={terminals.options} loading={terminals.loading} onChange={(v) => setTerminalId(v as number | null)} />
          <TextField size="small" type="date" label="From" value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
          <TextField size="small" type="date" label="To" value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
        </>
      }
      canCreate={false}
      canDelete={() => false}
      canEdit={() => false}
      headerActions={
        <>
          {billPerms.view && (
            <Button startIcon={<ReceiptLong />} onClick={() => navigate('/purchase-order/bills')}>
              Bills
            </Button>
          )}
          {perms.add && (
            <Button variant="contained" startIcon={<Add />} onClick={() => navigate('/purchase-order/new')}>
              New purchase order
            </Button>
          )}
        </>
      }
      onRowClick={(o) => navigate(`/purchase-order/${o.id}`)}
      rowActions={(o) => [{ label: 'Open', icon: <OpenInNew />, onClick: () => { navigate(`/purchase-order/${o.id}`); } }]}
      exportFilename="purchase-orders"
    />
  );
}
