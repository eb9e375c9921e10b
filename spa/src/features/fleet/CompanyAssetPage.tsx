import { useState } from 'react';
import { ActiveChip, ResourceListPage, ToolbarSelect, type ColumnDef, type FieldDef } from '@/components/resource';
import { useAssetTypeOptions, useYardOptions } from '@/lib/api/lookups';
import { CompartmentsEditor, type CompartmentRow } from './CompartmentsEditor';
import { compartmentsProblem, vinProblem } from './compartments';
import { ASSET_CATEGORIES, companyAssetsApi, type CompanyAsset, type CompanyAssetCreate, type CompanyAssetUpdate } from './fleetApi';
import { toText } from '@/lib/text';

export interface AssetForm {
  asset_number: string;
  name: string;
  asset_type_id: number | null;
  capacity: number | null;
  compartments: CompartmentRow[];
  plate: string;
  vin: string;
  home_yard_id: number | null;
  is_active: boolean;
}

const gal = (n: number) => `${n.toLocaleString('en-US')} gal`;

const columns: ColumnDef<CompanyAsset>[] = [
  { field: 'asset_number', headerName: 'Number', sortField: 'asset_number', width: 110 },
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'asset_type', headerName: 'Type', sortField: 'asset_type', minWidth: 140, hideOnPhone: true, value: (a) => a.asset_type?.name ?? '' },
  {
    field: 'capacity', headerName: 'Capacity', sortField: 'capacity', minWidth: 150, align: 'right',
    value: (a) => (a.capacity ? `${gal(a.capacity)}${a.compartments.length ? ` · ${a.compartments.length} comp.` : ''}` : 'No tank'),
  },
  { field: 'home_yard', headerName: 'Home yard', sortField: 'home_yard', minWidth: 130, hideOnPhone: true, value: (a) => a.home_yard?.name ?? '' },
  { field: 'plate', headerName: 'Plate', width: 110, hideOnPhone: true },
  { field: 'is_active', headerName: 'Status', sortField: 'is_active', width: 110, value: (a) => (a.is_active ? 'Active' : 'Inactive'), render: (a) => <ActiveChip active={a.is_active} /> },
];

export const assetFields: FieldDef<AssetForm>[] = [
  { name: 'asset_number', label: 'Fleet number', required: true, maxLength: 30, width: 4, helperText: 'e.g. T-101' },
  { name: 'name', label: 'Name', required: true, maxLength: 120, width: 8 },
  { name: 'asset_type_id', label: 'Type', type: 'select', required: true, width: 6, useOptions: () => useAssetTypeOptions() },
  { name: 'capacity', label: 'Capacity (US gal)', type: 'number', min: 0, max: 100000, step: 1, width: 6, helperText: '0 for units without a tank', validate: (v) => (Number.isInteger(v) ? null : 'Capacity is whole gallons') },
  {
    name: 'compartments', label: 'Compartments', type: 'custom',
    render: ({ value, onChange, error, disabled, values }) => (
      <CompartmentsEditor value={(value as CompartmentRow[]) ?? []} onChange={onChange} capacity={values.capacity} error={error} disabled={disabled} />
    ),
    validate: (v, values) => compartmentsProblem(v as CompartmentRow[], values.capacity),
  },
  { name: 'plate', label: 'Plate', maxLength: 20, width: 4, section: 'Registration' },
  { name: 'vin', label: 'VIN', maxLength: 17, width: 8, validate: (v) => vinProblem(toText(v)) },
  { name: 'home_yard_id', label: 'Home yard', type: 'select', width: 6, useOptions: () => useYardOptions() },
  { name: 'is_active', label: 'Active (can be dispatched)', type: 'switch', width: 6 },
];

const empty: AssetForm = { asset_number: '', name: '', asset_type_id: null, capacity: 0, compartments: [], plate: '', vin: '', home_yard_id: null, is_active: true };

const body = (v: AssetForm) => ({
  asset_number: v.asset_number.trim(), name: v.name.trim(), asset_type_id: v.asset_type_id!, capacity: v.capacity ?? 0,
  compartments: v.compartments.map((c) => ({ number: c.number!, capacity: c.capacity! })),
  plate: v.plate.trim().toUpperCase(), vin: v.vin.trim().toUpperCase(), home_yard_id: v.home_yard_id, is_active: v.is_active,
});

export default function CompanyAssetPage() {
  const [update] = companyAssetsApi.useUpdate();
  const [category, setCategory] = useState<string | null>(null);
  return (
    <ResourceListPage<CompanyAsset, AssetForm, CompanyAssetCreate, CompanyAssetUpdate>
      title="Company Assets"
      subtitle="Your fleet: trucks, trailers and tank wagons, with their compartments."
      singular="Company asset"
      plural="company assets"
      resource={companyAssetsApi}
      permission="company_asset"
      columns={columns}
      describe={(a) => `${a.asset_number} ${a.name}`}
      defaultPageSize={10}
      defaultSort={{ field: 'asset_number', order: 'asc' }}
      searchPlaceholder="Search number, name, plate or VIN"
      filters={[
        { field: 'asset_number', label: 'Number', type: 'text' },
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'asset_type', label: 'Type', type: 'text' },
        { field: 'home_yard', label: 'Home yard', type: 'text' },
        { field: 'capacity', label: 'Capacity', type: 'number' },
        { field: 'plate', label: 'Plate', type: 'text' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      extraParams={{ category: category ?? undefined }}
      toolbarExtra={<ToolbarSelect label="Category" allLabel="All categories" value={category} options={[...ASSET_CATEGORIES]} onChange={(v) => setCategory(v as string | null)} />}
      form={{
        fields: assetFields,
        emptyValues: empty,
        toValues: (a) => ({
          asset_number: a.asset_number, name: a.name, asset_type_id: a.asset_type_id, capacity: a.capacity, compartments: a.compartments.map((c) => ({ ...c })),
          plate: a.plate, vin: a.vin, home_yard_id: a.home_yard_id, is_active: a.is_active,
        }),
        toCreateBody: body,
        toUpdateBody: body,
        maxWidth: 'md',
      }}
      deleteAlternative={(a) => (a.is_active ? { label: 'Deactivate instead', run: () => update(a.id, { is_active: false }) } : undefined)}
      exportFilename="company-assets"
    />
  );
}
