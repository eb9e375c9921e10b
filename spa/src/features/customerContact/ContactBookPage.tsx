import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useAppDispatch } from '@/lib/session/hooks';
import { ResourceListPage, ToolbarCombobox, ToolbarSelect, type ColumnDef, type FieldDef } from '@/components/resource';
import { useContactServiceLookupQuery, useContactServiceOptions, useCustomerOptions, useShipToOptions, useUserOptions } from '@/lib/api/lookups';
import { contactsApi, type Contact, type ContactCreate, type ContactUpdate } from './contactsApi';
import { contactFilterChanged, useContactBookSelector } from './customerContactSlice';

interface ContactForm {
  customer_id: number | null;
  ship_to_id: number | null;
  name: string;
  email: string;
  phone: string;
  position: string;
  user_account: number | null;
  services: number[];
  notes: string;
}

const columns: ColumnDef<Contact>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'customer', headerName: 'Customer', sortField: 'customer', minWidth: 180, value: (c) => c.customer?.name ?? '' },
  { field: 'ship_to', headerName: 'Ship-to', minWidth: 130, hideOnPhone: true, value: (c) => c.ship_to?.name ?? 'All locations' },
  { field: 'position', headerName: 'Position', sortField: 'position', minWidth: 130, hideOnPhone: true },
  { field: 'email', headerName: 'Email', sortField: 'email', minWidth: 200, hideOnPhone: true },
  { field: 'phone', headerName: 'Phone', minWidth: 130, hideOnPhone: true },
  {
    field: 'services', headerName: 'Receives', minWidth: 220, flex: 2, hideOnPhone: true, value: (c) => c.services.map((s) => s.name).join('; '),
    render: (c) => (
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'nowrap', overflow: 'hidden', alignItems: 'center', height: '100%' }} title={c.services.map((s) => s.name).join(', ')}>
        {c.services.map((s) => <Chip key={s.id} size="small" label={s.name} variant="outlined" />)}
      </Box>
    ),
  },
];

const fields: FieldDef<ContactForm>[] = [
  { name: 'customer_id', label: 'Customer', type: 'combobox', required: true, width: 6, useOptions: () => useCustomerOptions(), onValueChange: () => ({ ship_to_id: null }) },
  { name: 'ship_to_id', label: 'Ship-to', type: 'select', width: 6, useOptions: (v) => useShipToOptions(v.customer_id), disabled: (_m, v) => !v.customer_id, helperText: 'Empty for all locations' },
  { name: 'name', label: 'Name', required: true, maxLength: 200, width: 6, autoComplete: 'off' },
  { name: 'position', label: 'Position', maxLength: 100, width: 6, helperText: 'e.g. Accounts payable, Site manager' },
  { name: 'email', label: 'Email', type: 'email', width: 6, autoComplete: 'off' },
  { name: 'phone', label: 'Phone', maxLength: 40, width: 6 },
  { name: 'services', label: 'Sends them', type: 'multiselect', useOptions: () => useContactServiceOptions(), helperText: 'Invoices, delivery tickets, price notices …' },
  { name: 'user_account', label: 'Linked user', type: 'select', useOptions: () => useUserOptions(), helperText: 'Optional: a FuelDesk user this contact is' },
  { name: 'notes', label: 'Notes', type: 'textarea', maxLength: 2000 },
];

const body = (v: ContactForm) => ({
  customer_id: v.customer_id!, ship_to_id: v.ship_to_id, name: v.name.trim(), email: v.email.trim() || null, phone: v.phone.trim(), position: v.position.trim(),
  // Spec section 7: user_account is sent as null when missing.
  user_account: v.user_account ?? null, services: v.services, notes: v.notes.trim(),
});

export default function ContactBookPage() {
  const dispatch = useAppDispatch();
  // The filters are kept across reloads (the persisted customerContact slice).
  const { selectedCustomerId, selectedShipToId, position } = useContactBookSelector((s) => s.customerContact);
  const customers = useCustomerOptions();
  const shipTos = useShipToOptions(selectedCustomerId);
  const services = useContactServiceLookupQuery();
  const [service, setService] = useState<string | null>(null);
  const [positionInput, setPositionInput] = useState(position ?? '');
  useEffect(() => {
    const t = setTimeout(() => {
      const next = positionInput.trim() || null;
      if (next !== position) dispatch(contactFilterChanged({ position: next }));
    }, 300);
    return () => clearTimeout(t);
  }, [positionInput, position, dispatch]);
  // The list's `service` filter takes a service code.
  const serviceCodes = (services.data ?? []).map((s) => ({ value: s.code, label: s.name }));

  return (
    <ResourceListPage<Contact, ContactForm, ContactCreate, ContactUpdate>
      title="Customer Contact Book"
      subtitle="Who to send invoices, delivery tickets and price notices to, per customer and ship-to."
      singular="Contact"
      plural="contacts"
      resource={contactsApi}
      permission="customer_contact"
      columns={columns}
      describe={(c) => c.name}
      defaultPageSize={50}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search name, email, phone, customer"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'email', label: 'Email', type: 'text' },
        { field: 'customer', label: 'Customer', type: 'text' },
      ]}
      extraParams={{ customer_id: selectedCustomerId ?? undefined, ship_to_id: selectedShipToId ?? undefined, position: position ?? undefined, service: service ?? undefined }}
      toolbarExtra={
        <>
          <ToolbarCombobox
            label="Customer"
            allLabel="All customers"
            value={selectedCustomerId}
            options={customers.options}
            loading={customers.loading}
            onChange={(v) => dispatch(contactFilterChanged({ selectedCustomerId: (v as number | null) ?? null, selectedShipToId: null }))}
          />
          {selectedCustomerId && (
            <ToolbarSelect label="Ship-to" allLabel="All ship-tos" value={selectedShipToId} options={shipTos.options} loading={shipTos.loading} onChange={(v) => dispatch(contactFilterChanged({ selectedShipToId: (v as number | null) ?? null }))} />
          )}
          <TextField size="small" fullWidth={false} label="Position" value={positionInput} onChange={(e) => setPositionInput(e.target.value)} sx={{ width: { xs: '100%', sm: 160 } }} slotProps={{ inputLabel: { shrink: true } }} placeholder="Any" />
          <ToolbarSelect label="Receives" allLabel="Any service" value={service} options={serviceCodes} loading={services.isLoading} onChange={(v) => setService(v === null ? null : String(v))} minWidth={150} />
        </>
      }
      form={{
        fields,
        emptyValues: { customer_id: selectedCustomerId, ship_to_id: selectedShipToId, name: '', email: '', phone: '', position: '', user_account: null, services: [], notes: '' },
        toValues: (c) => ({
          customer_id: c.customer_id, ship_to_id: c.ship_to_id, name: c.name, email: c.email, phone: c.phone, position: c.position,
          user_account: c.user_account, services: [...c.service_ids], notes: c.notes,
        }),
        toCreateBody: body,
        toUpdateBody: body,
        maxWidth: 'md',
      }}
      exportFilename="customer-contacts"
    />
  );
}
