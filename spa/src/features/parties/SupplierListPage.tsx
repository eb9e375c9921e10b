import LabelOutlined from '@mui/icons-material/LabelOutlined';
import PublishedWithChanges from '@mui/icons-material/PublishedWithChanges';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { ResourceListPage, StatusChip, ToolbarSelect, addressFields, type AddressValues, type ColumnDef, type FieldDef } from '@/components/resource';
import { usePermissions, useTerminalOptions } from '@/lib/api/lookups';
import { SUPPLIER_STATUSES, suppliersApi, useSupplierStatusMutation, type Supplier, type SupplierCreate, type SupplierStatus, type SupplierUpdate } from './partiesApi';
import { StatusDialog } from './StatusDialog';
import { SupplierTabs } from './SupplierTabs';

interface SupplierForm extends AddressValues {
  name: string;
  code: string;
  status: SupplierStatus;
  contact_name: string;
  email: string;
  phone: string;
  terminals: number[];
  notes: string;
}

const statusOptions = (Object.keys(SUPPLIER_STATUSES) as SupplierStatus[]).map((s) => ({ value: s, label: SUPPLIER_STATUSES[s].label }));

const columns: ColumnDef<Supplier>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 200, flex: 2 },
  { field: 'code', headerName: 'Vendor no.', sortField: 'code', width: 110, hideOnPhone: true },
  { field: 'contact_name', headerName: 'Contact', minWidth: 150, hideOnPhone: true, value: (s) => [s.contact_name, s.phone].filter(Boolean).join(' · ') },
  { field: 'terminals', headerName: 'Terminals', minWidth: 200, flex: 2, hideOnPhone: true, value: (s) => s.terminals.map((t) => t.name).join(', ') },
  { field: 'status', headerName: 'Status', sortField: 'status', width: 110, value: (s) => SUPPLIER_STATUSES[s.status as SupplierStatus]?.label ?? s.status, render: (s) => <StatusChip value={s.status} styles={SUPPLIER_STATUSES} /> },
];

const fields: FieldDef<SupplierForm>[] = [
  { name: 'name', label: 'Supplier name', required: true, maxLength: 200, width: 8 },
  { name: 'code', label: 'Vendor number', maxLength: 30, width: 4 },
  { name: 'status', label: 'Status', type: 'select', required: true, width: 4, options: statusOptions },
  { name: 'contact_name', label: 'Contact name', maxLength: 120, width: 8 },
  { name: 'email', label: 'Email', type: 'email', width: 6 },
  { name: 'phone', label: 'Phone', maxLength: 40, width: 6 },
  { name: 'terminals', label: 'Terminals they load at', type: 'multiselect', useOptions: () => useTerminalOptions() },
  ...addressFields<SupplierForm>('Address'),
  { name: 'notes', label: 'Notes', type: 'textarea', maxLength: 2000 },
];

const empty: SupplierForm = { name: '', code: '', status: 'active', contact_name: '', email: '', phone: '', terminals: [], address_one: '', address_two: '', state_id: null, city_id: null, zip_code: '', notes: '' };

const body = (v: SupplierForm) => ({
  name: v.name.trim(), code: v.code.trim(), status: v.status, contact_name: v.contact_name.trim(), email: v.email.trim() || null, phone: v.phone.trim(),
  terminals: v.terminals, address_one: v.address_one.trim(), address_two: v.address_two.trim(), state_id: v.state_id, city_id: v.city_id, zip_code: v.zip_code.trim(), notes: v.notes.trim(),
});

export default function SupplierListPage() {
  const navigate = useNavigate();
  const terminals = useTerminalOptions();
  const [status, setStatus] = useState<string | null>(null);
  const [terminalId, setTerminalId] = useState<number | null>(null);
  const [changing, setChanging] = useState<Supplier | null>(null);
  const [setSupplierStatus] = useSupplierStatusMutation();
  const perms = usePermissions('supplier');
  const changeStatus = async (s: Supplier, next: SupplierStatus) => {
    await setSupplierStatus({ id: s.id, status: next }).unwrap();
    toast.success(`${s.name} is now ${SUPPLIER_STATUSES[next].label.toLowerCase()}`);
  };
  return (
    <>
      <ResourceListPage<Supplier, SupplierForm, SupplierCreate, SupplierUpdate>
        title="Suppliers"
        subtitle="Who you buy from, and the terminals where their product is loaded."
        singular="Supplier"
        plural="suppliers"
        resource={suppliersApi}
        permission="supplier"
        columns={columns}
        describe={(s) => s.name}
        defaultPageSize={100}
        defaultSort={{ field: 'name', order: 'asc' }}
        searchPlaceholder="Search name, vendor number, contact"
        headerContent={<SupplierTabs />}
        filters={[
          { field: 'name', label: 'Name', type: 'text' },
          { field: 'code', label: 'Vendor number', type: 'text' },
          { field: 'email', label: 'Email', type: 'text' },
          { field: 'city', label: 'City', type: 'text' },
        ]}
        extraParams={{ status: status ?? undefined, terminal_id: terminalId ?? undefined }}
        toolbarExtra={
          <>
            <ToolbarSelect label="Status" allLabel="All statuses" value={status} options={statusOptions} onChange={(v) => setStatus(v as string | null)} minWidth={140} />
            <ToolbarSelect label="Terminal" allLabel="All terminals" value={terminalId} options={terminals.options} loading={terminals.loading} onChange={(v) => setTerminalId(v as number | null)} />
          </>
        }
        form={{
          fields,
          emptyValues: empty,
          toValues: (s) => ({
            name: s.name, code: s.code, status: s.status as SupplierStatus, contact_name: s.contact_name, email: s.email, phone: s.phone, terminals: s.terminals.map((t) => t.id),
            address_one: s.address_one, address_two: s.address_two, state_id: s.state_id, city_id: s.city_id, zip_code: s.zip_code, notes: s.notes,
          }),
          toCreateBody: body,
          toUpdateBody: body,
          maxWidth: 'md',
        }}
        rowActions={(s) => [
          { label: 'Product aliases', icon: <LabelOutlined />, onClick: () => { navigate(`/supplier/aliases?supplier_id=${s.id}`); }, showInMenu: true },
          { label: 'Change status', icon: <PublishedWithChanges />, onClick: () => setChanging(s), showInMenu: true, hidden: !perms.change },
        ]}
        deleteMessage={(s) => `This deletes ${s.name} and its product aliases. To keep their history, set the supplier inactive instead.`}
        deleteAlternative={(s) => (s.status !== 'inactive' ? { label: 'Set inactive instead', run: () => changeStatus(s, 'inactive') } : undefined)}
        exportFilename="suppliers"
      />
      {changing && (
        <StatusDialog<SupplierStatus>
          title={`Status of ${changing.name}`}
          current={changing.status as SupplierStatus}
          statuses={SUPPLIER_STATUSES}
          onSubmit={(s) => changeStatus(changing, s)}
          onClose={() => setChanging(null)}
        />
      )}
    </>
  );
}
