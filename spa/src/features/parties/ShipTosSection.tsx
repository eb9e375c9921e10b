import PropaneTankOutlined from '@mui/icons-material/PropaneTankOutlined';
import { ActiveChip, ResourceListPage, addressFields, latLongFields, numOrNull, type AddressValues, type ColumnDef, type FieldDef, type LatLongValues } from '@/components/resource';
import { shipTosApi, type Customer, type ShipTo, type ShipToCreate, type ShipToUpdate } from './partiesApi';

interface ShipToForm extends AddressValues, LatLongValues {
  name: string;
  delivery_instructions: string;
  access_hours: string;
  is_active: boolean;
}

const columns: ColumnDef<ShipTo>[] = [
  { field: 'name', headerName: 'Ship-to', sortField: 'name', minWidth: 160 },
  { field: 'city', headerName: 'Address', sortField: 'city', minWidth: 220, flex: 2, hideOnPhone: true, value: (s) => [s.address_one, [s.city?.name, s.state?.code].filter(Boolean).join(', '), s.zip_code].filter(Boolean).join(' · ') },
  { field: 'access_hours', headerName: 'Access hours', minWidth: 140, hideOnPhone: true },
  { field: 'is_active', headerName: 'Status', width: 100, value: (s) => (s.is_active ? 'Active' : 'Inactive'), render: (s) => <ActiveChip active={s.is_active} /> },
];

const fields: FieldDef<ShipToForm>[] = [
  { name: 'name', label: 'Ship-to name', required: true, maxLength: 200, helperText: 'e.g. North Yard, Store #12' },
  ...addressFields<ShipToForm>('Location'),
  ...latLongFields<ShipToForm>(),
  { name: 'delivery_instructions', label: 'Delivery instructions', type: 'textarea', maxLength: 2000, section: 'Delivery' },
  { name: 'access_hours', label: 'Access hours', maxLength: 200, width: 8, helperText: 'e.g. Mon–Fri 6:00–17:00, gate code 4411' },
  { name: 'is_active', label: 'Active', type: 'switch', width: 4 },
];

const empty: ShipToForm = {
  name: '', address_one: '', address_two: '', state_id: null, city_id: null, zip_code: '', latitude: null, longitude: null, delivery_instructions: '', access_hours: '', is_active: true,
};

const body = (v: ShipToForm) => ({
  name: v.name.trim(), address_one: v.address_one.trim(), address_two: v.address_two.trim(), state_id: v.state_id, city_id: v.city_id, zip_code: v.zip_code.trim(),
  latitude: v.latitude, longitude: v.longitude, delivery_instructions: v.delivery_instructions.trim(), access_hours: v.access_hours.trim(), is_active: v.is_active,
});

/** The customer's delivery locations. */
export function ShipTosSection({ customer, onShowTanks }: { customer: Customer; onShowTanks: (s: ShipTo) => void }) {
  const [update] = shipTosApi.useUpdate();
  return (
    <ResourceListPage<ShipTo, ShipToForm, ShipToCreate, ShipToUpdate>
      embedded
      title="Ship-tos"
      subtitle="Where deliveries go; each has its own tanks."
      singular="Ship-to"
      plural="ship-tos"
      resource={shipTosApi}
      permission="customer_ship_to"
      columns={columns}
      describe={(s) => s.name}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search ship-tos"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'city', label: 'City', type: 'text' },
        { field: 'zip_code', label: 'ZIP code', type: 'text' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      extraParams={{ customer_id: customer.id }}
      gridHeight={300}
      form={{
        fields,
        emptyValues: { ...empty, state_id: customer.state_id, city_id: customer.city_id },
        toValues: (s) => ({
          name: s.name, address_one: s.address_one, address_two: s.address_two, state_id: s.state_id, city_id: s.city_id, zip_code: s.zip_code,
          latitude: numOrNull(s.latitude), longitude: numOrNull(s.longitude), delivery_instructions: s.delivery_instructions, access_hours: s.access_hours, is_active: s.is_active,
        }),
        toCreateBody: (v) => ({ ...body(v), customer_id: customer.id }),
        toUpdateBody: body,
        maxWidth: 'md',
      }}
      onRowClick={onShowTanks}
      rowActions={(s) => [{ label: 'Tanks', icon: <PropaneTankOutlined />, onClick: () => onShowTanks(s) }]}
      actionsWidth={150}
      deleteMessage={(s) => `This deletes the ship-to ${s.name}. A ship-to with tanks cannot be deleted; deactivate it instead.`}
      deleteAlternative={(s) => (s.is_active ? { label: 'Deactivate instead', run: () => update(s.id, { is_active: false }) } : undefined)}
      importHelp={<>Columns: <strong>customer</strong> (account number or exact name), <strong>name</strong>, address_one, address_two, city, state, zip_code, latitude, longitude, delivery_instructions, access_hours, is_active. Rows may name any customer.</>}
      exportFilename={`ship-tos-${customer.account_number}`}
    />
  );
}
