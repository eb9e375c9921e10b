import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';
import { ActiveChip, ResourceListPage, ToolbarSelect, numOrNull, type ColumnDef, type FieldDef } from '@/components/resource';
import { useProductOptions, useShipToOptions } from '@/lib/api/lookups';
import { TANK_TYPES, tanksApi, type Customer, type Tank, type TankCreate, type TankUpdate } from './partiesApi';

interface TankForm {
  asset_name: string;
  ship_to_id: number | null;
  product_id: number | null;
  capacity: number | null;
  tank_type: TankCreate['tank_type'];
  serial_number: string;
  is_active: boolean;
  notes: string;
}

const tankType = (v: string) => TANK_TYPES.find((t) => t.value === v)?.label ?? v;

const columns: ColumnDef<Tank>[] = [
  { field: 'asset_name', headerName: 'Tank', sortField: 'asset_name', minWidth: 140 },
  { field: 'ship_to', headerName: 'Ship-to', sortField: 'ship_to', minWidth: 140, hideOnPhone: true, value: (t) => t.ship_to?.name ?? '' },
  { field: 'product', headerName: 'Product', sortField: 'product', minWidth: 180, flex: 2, value: (t) => t.product?.name ?? '' },
  { field: 'capacity', headerName: 'Capacity', sortField: 'capacity', width: 120, align: 'right', value: (t) => (t.capacity === null ? '' : `${Number(t.capacity).toLocaleString('en-US')} gal`) },
  { field: 'tank_type', headerName: 'Type', width: 130, hideOnPhone: true, value: (t) => tankType(t.tank_type) },
  { field: 'is_active', headerName: 'Status', width: 100, value: (t) => (t.is_active ? 'Active' : 'Inactive'), render: (t) => <ActiveChip active={t.is_active} /> },
  {
    field: 'forecast',
    headerName: 'Forecast',
    width: 100,
    value: () => '',
    render: (t) => (
      <Link component={RouterLink} to={`/forecast/tank/${t.id}`} underline="hover" aria-label={`Level and forecast of ${t.asset_name}`} onClick={(e) => e.stopPropagation()}>
        Forecast
      </Link>
    ),
  },
];

function fieldsFor(customerId: number): FieldDef<TankForm>[] {
  return [
    { name: 'asset_name', label: 'Tank name', required: true, maxLength: 120, width: 6, helperText: 'e.g. Tank 1, Generator' },
    { name: 'ship_to_id', label: 'Ship-to', type: 'select', required: true, width: 6, useOptions: () => useShipToOptions(customerId) },
    { name: 'product_id', label: 'Product it holds', type: 'combobox', width: 12, useOptions: () => useProductOptions() },
    { name: 'capacity', label: 'Capacity (gal)', type: 'number', min: 0, step: 1, width: 4 },
    { name: 'tank_type', label: 'Tank type', type: 'select', required: true, width: 4, options: [...TANK_TYPES] },
    { name: 'serial_number', label: 'Serial number', maxLength: 60, width: 4 },
    { name: 'notes', label: 'Notes', type: 'textarea', maxLength: 2000 },
    { name: 'is_active', label: 'Active (we fill it)', type: 'switch' },
  ];
}

const body = (v: TankForm) => ({
  asset_name: v.asset_name.trim(), ship_to_id: v.ship_to_id, product_id: v.product_id, capacity: v.capacity, tank_type: v.tank_type,
  serial_number: v.serial_number.trim(), is_active: v.is_active, notes: v.notes.trim(),
});

/** Tanks and equipment we fill at the customer's ship-tos; one ship-to or all of them. */
export function TanksSection({ customer, shipToId, onShipToChange }: { customer: Customer; shipToId: number | null; onShipToChange: (id: number | null) => void }) {
  const shipTos = useShipToOptions(customer.id);
  const [update] = tanksApi.useUpdate();
  const current = shipTos.options.find((o) => o.value === shipToId);
  return (
    <ResourceListPage<Tank, TankForm, TankCreate, TankUpdate>
      embedded
      title={current ? `Tanks at ${current.label}` : 'Tanks'}
      subtitle={shipTos.options.length === 0 && !shipTos.loading ? 'Add a ship-to first: every tank stands at one.' : 'Tanks and equipment we fill, by ship-to.'}
      singular="Tank"
      plural="tanks"
      resource={tanksApi}
      permission="asset"
      columns={columns}
      describe={(t) => t.asset_name}
      defaultPageSize={100}
      defaultSort={{ field: 'asset_name', order: 'asc' }}
      searchPlaceholder="Search tanks"
      filters={[
        { field: 'asset_name', label: 'Name', type: 'text' },
        { field: 'tank_type', label: 'Type', type: 'text' },
        { field: 'capacity', label: 'Capacity', type: 'number' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      extraParams={shipToId ? { ship_to_id: shipToId } : { customer_id: customer.id }}
      toolbarExtra={<ToolbarSelect label="Ship-to" allLabel="All ship-tos" value={shipToId} options={shipTos.options} loading={shipTos.loading} onChange={(v) => onShipToChange(v as number | null)} />}
      gridHeight={300}
      canCreate={shipTos.options.length > 0}
      form={{
        fields: fieldsFor(customer.id),
        emptyValues: { asset_name: '', ship_to_id: shipToId ?? shipTos.options[0]?.value ?? null, product_id: null, capacity: null, tank_type: 'above_ground', serial_number: '', is_active: true, notes: '' },
        toValues: (t) => ({
          asset_name: t.asset_name, ship_to_id: t.ship_to_id, product_id: t.product_id, capacity: numOrNull(t.capacity), tank_type: t.tank_type as TankForm['tank_type'],
          serial_number: t.serial_number, is_active: t.is_active, notes: t.notes,
        }),
        toCreateBody: (v) => ({ ...body(v), customer_id: customer.id }),
        toUpdateBody: body,
      }}
      deleteAlternative={(t) => (t.is_active ? { label: 'Deactivate instead', run: () => update(t.id, { is_active: false }) } : undefined)}
      exportFilename={`tanks-${customer.account_number}`}
    />
  );
}
