import { useState } from 'react';
import { ActiveChip, ResourceListPage, ToolbarSelect, addressFields, latLongFields, numOrNull, type AddressValues, type ColumnDef, type FieldDef, type LatLongValues } from '@/components/resource';
import { useSupplierOptions } from '@/lib/api/lookups';
import { terminalsApi, type Terminal, type TerminalCreate, type TerminalUpdate } from './partiesApi';

interface TerminalForm extends AddressValues, LatLongValues {
  name: string;
  terminal_code: string;
  suppliers: number[];
  is_active: boolean;
  notes: string;
}

const columns: ColumnDef<Terminal>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 180, flex: 2 },
  { field: 'terminal_code', headerName: 'Terminal code', sortField: 'terminal_code', width: 150 },
  { field: 'city', headerName: 'City', sortField: 'city', minWidth: 140, hideOnPhone: true, value: (t) => [t.city?.name, t.state?.code].filter(Boolean).join(', ') },
  { field: 'suppliers', headerName: 'Suppliers', minWidth: 200, flex: 2, hideOnPhone: true, value: (t) => t.suppliers.map((s) => s.name).join(', ') },
  { field: 'is_active', headerName: 'Status', width: 100, value: (t) => (t.is_active ? 'Active' : 'Inactive'), render: (t) => <ActiveChip active={t.is_active} /> },
];

const fields: FieldDef<TerminalForm>[] = [
  { name: 'name', label: 'Terminal name', required: true, maxLength: 200, width: 8 },
  { name: 'terminal_code', label: 'Terminal code (TCN)', required: true, maxLength: 30, width: 4, helperText: 'e.g. T-76-TX-2004' },
  { name: 'suppliers', label: 'Suppliers that load here', type: 'multiselect', useOptions: () => useSupplierOptions() },
  ...addressFields<TerminalForm>('Location'),
  ...latLongFields<TerminalForm>(),
  { name: 'notes', label: 'Notes', type: 'textarea', maxLength: 2000 },
  { name: 'is_active', label: 'Active', type: 'switch' },
];

const empty: TerminalForm = {
  name: '', terminal_code: '', suppliers: [], address_one: '', address_two: '', state_id: null, city_id: null, zip_code: '', latitude: null, longitude: null, is_active: true, notes: '',
};

const body = (v: TerminalForm) => ({
  name: v.name.trim(), terminal_code: v.terminal_code.trim().toUpperCase(), suppliers: v.suppliers, address_one: v.address_one.trim(), address_two: v.address_two.trim(),
  state_id: v.state_id, city_id: v.city_id, zip_code: v.zip_code.trim(), latitude: v.latitude, longitude: v.longitude, is_active: v.is_active, notes: v.notes.trim(),
});

export default function TerminalPage() {
  const [update] = terminalsApi.useUpdate();
  const suppliers = useSupplierOptions();
  const [supplierId, setSupplierId] = useState<number | null>(null);
  return (
    <ResourceListPage<Terminal, TerminalForm, TerminalCreate, TerminalUpdate>
      title="Terminals"
      subtitle="Loading racks where product is picked up, and the suppliers that load there."
      singular="Terminal"
      plural="terminals"
      resource={terminalsApi}
      permission="terminal"
      columns={columns}
      describe={(t) => t.name}
      defaultPageSize={10}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search name, code, address"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'terminal_code', label: 'Terminal code', type: 'text' },
        { field: 'city', label: 'City', type: 'text' },
        { field: 'state', label: 'State code', type: 'text' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      extraParams={{ supplier_id: supplierId ?? undefined }}
      toolbarExtra={<ToolbarSelect label="Supplier" allLabel="All suppliers" value={supplierId} options={suppliers.options} loading={suppliers.loading} onChange={(v) => setSupplierId(v as number | null)} />}
      form={{
        fields,
        emptyValues: empty,
        toValues: (t) => ({
          name: t.name, terminal_code: t.terminal_code, suppliers: t.suppliers.map((s) => s.id), address_one: t.address_one, address_two: t.address_two,
          state_id: t.state_id, city_id: t.city_id, zip_code: t.zip_code, latitude: numOrNull(t.latitude), longitude: numOrNull(t.longitude), is_active: t.is_active, notes: t.notes,
        }),
        toCreateBody: body,
        toUpdateBody: body,
        maxWidth: 'md',
      }}
      deleteAlternative={(t) => (t.is_active ? { label: 'Deactivate instead', run: () => update(t.id, { is_active: false }) } : undefined)}
      importHelp={<>Columns: <strong>name</strong>, <strong>terminal_code</strong> (required), address_one, address_two, city, state, zip_code, latitude, longitude, is_active, notes. Suppliers are linked on the form afterwards.</>}
      exportFilename="terminals"
    />
  );
}
