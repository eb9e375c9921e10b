import Add from '@mui/icons-material/Add';
import BookmarkAdd from '@mui/icons-material/BookmarkAdd';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ResourceListPage, StatusChip, ToolbarCombobox, ToolbarSelect, type ColumnDef } from '@/components/resource';
import { useCustomerOptions, usePermissions } from '@/lib/api/lookups';
import { ORDER_STATUSES, money, ordersApi, type OrderRow } from './salesApi';
import { loadViews, saveViews, type SavedView } from './savedViews';

const columns: ColumnDef<OrderRow>[] = [
  { field: 'number', headerName: 'Order', sortField: 'number', width: 120 },
  { field: 'customer', headerName: 'Customer', sortField: 'customer', minWidth: 180, flex: 2, value: (o) => o.customer.name },
  { field: 'ship_to', headerName: 'Ship-to', minWidth: 140, flex: 1, hideOnPhone: true, value: (o) => o.ship_to?.name ?? '' },
  {
    field: 'planned_date',
    headerName: 'Planned',
    sortField: 'planned_date',
    width: 150,
    value: (o) => `${o.planned_date}${o.planned_time_from ? ` ${o.planned_time_from.slice(0, 5)}–${(o.planned_time_to ?? '').slice(0, 5)}` : ''}`,
  },
  { field: 'po_number', headerName: 'PO', sortField: 'po_number', width: 110, hideOnPhone: true },
  { field: 'driver', headerName: 'Driver / truck', minWidth: 150, hideOnPhone: true, value: (o) => [o.driver?.name, o.truck?.asset_number].filter(Boolean).join(' · ') },
  { field: 'total', headerName: 'Total', sortField: 'total', width: 120, align: 'right', value: (o) => money(o.total) },
  { field: 'status', headerName: 'Status', sortField: 'status', width: 130, value: (o) => ORDER_STATUSES[o.status]?.label ?? o.status, render: (o) => <StatusChip value={o.status} styles={ORDER_STATUSES} /> },
];

const statusOptions = Object.entries(ORDER_STATUSES)
  .filter(([k]) => k !== 'archive')
  .map(([value, s]) => ({ value, label: s.label }));

export default function SalesOrderListPage() {
  const navigate = useNavigate();
  const customers = useCustomerOptions();
  const perms = usePermissions('sales_order');
  const [tab, setTab] = useState<'open' | 'archive'>('open');
  const [status, setStatus] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [views, setViews] = useState<SavedView[]>(loadViews);
  const [viewName, setViewName] = useState<string | null>(null);

  const apply = (v: SavedView | undefined) => {
    setViewName(v?.name ?? null);
    setStatus(v?.status ?? null);
    setCustomerId(v?.customerId ?? null);
    setStart(v?.start ?? '');
    setEnd(v?.end ?? '');
  };
  const saveView = () => {
    const name = window.prompt('Name of this view (status, customer and dates are kept)');
    if (!name?.trim()) return;
    const next = [...views.filter((v) => v.name !== name.trim()), { name: name.trim(), status, customerId, start, end }];
    setViews(next);
    saveViews(next);
    setViewName(name.trim());
  };
  const removeView = () => {
    const next = views.filter((v) => v.name !== viewName);
    setViews(next);
    saveViews(next);
    setViewName(null);
  };
  const archive = tab === 'archive';

  return (
    <>
      <Tabs value={tab} onChange={(_, v: 'open' | 'archive') => setTab(v)} sx={{ px: { xs: 2, sm: 3 }, pt: 1 }} aria-label="Orders or archive">
        <Tab value="open" label="Orders" />
        <Tab value="archive" label="Archive" />
      </Tabs>
      <ResourceListPage<OrderRow, never, never, never>
        key={tab}
        title={archive ? 'Archived sales orders' : 'Sales orders'}
        subtitle="Take an order, price it, verify it, plan it on the dispatch center and follow it on the board."
        singular="Sales order"
        plural="sales orders"
        resource={ordersApi}
        columns={columns}
        describe={(o) => o.number}
        defaultPageSize={archive ? 10 : 50}
        defaultSort={{ field: 'planned_date', order: 'desc' }}
        searchPlaceholder="Search order number, PO, customer"
        filters={[
          { field: 'number', label: 'Order number', type: 'text' },
          { field: 'po_number', label: 'PO number', type: 'text' },
          { field: 'customer_name', label: 'Customer', type: 'text' },
          { field: 'driver_name', label: 'Driver', type: 'text' },
          { field: 'planned_date', label: 'Planned date', type: 'date' },
          { field: 'total', label: 'Total', type: 'number' },
        ]}
        extraParams={{
          status: archive ? 'archive' : (status ?? undefined),
          customer_id: customerId ?? undefined,
          planned_date_start: start || undefined,
          planned_date_end: end || undefined,
        }}
        toolbarExtra={
          <>
            {!archive && <ToolbarSelect label="Status" allLabel="All open" value={status} options={statusOptions} onChange={(v) => setStatus(v as string | null)} minWidth={140} />}
            <ToolbarCombobox label="Customer" allLabel="All customers" value={customerId} options={customers.options} loading={customers.loading} onChange={(v) => setCustomerId(v as number | null)} />
            <TextField size="small" type="date" label="From" value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
            <TextField size="small" type="date" label="To" value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 150 }} />
            {!archive && (
              <>
                <ToolbarSelect label="Saved view" allLabel="No view" value={viewName} options={views.map((v) => ({ value: v.name, label: v.name }))} onChange={(v) => apply(views.find((x) => x.name === v))} minWidth={140} />
                <Tooltip title="Save these filters as a view">
                  <IconButton aria-label="Save view" onClick={saveView}>
                    <BookmarkAdd />
                  </IconButton>
                </Tooltip>
                {viewName && (
                  <Tooltip title="Delete this view">
                    <IconButton aria-label="Delete view" onClick={removeView}>
                      <DeleteOutlined />
                    </IconButton>
                  </Tooltip>
                )}
              </>
            )}
          </>
        }
        canCreate={false}
        canDelete={() => false}
        canEdit={() => false}
        headerActions={
          perms.add && !archive ? (
            <Button variant="contained" startIcon={<Add />} onClick={() => navigate('/sales-order/new')}>
              New order
            </Button>
          ) : undefined
        }
        onRowClick={(o) => navigate(`/sales-order/${o.id}`)}
        rowActions={(o) => [{ label: 'Open', icon: <OpenInNew />, onClick: () => { navigate(`/sales-order/${o.id}`); } }]}
        exportFilename={archive ? 'sales-orders-archive' : 'sales-orders'}
      />
    </>
  );
}
