import { useState } from 'react';
import { ActiveChip, ResourceListPage, ToolbarSelect, latLongFields, numOrNull, stateCityFields, type ColumnDef, type FieldDef } from '@/components/resource';
import { useRegionOptions } from '@/lib/api/lookups';
import { yardsApi, type Yard, type YardCreate, type YardUpdate } from './geoApi';

interface YardForm {
  name: string;
  code: string;
  address: string;
  state_id: number | null;
  city_id: number | null;
  zip_code: string;
  region_id: number | null;
  latitude: number | null;
  longitude: number | null;
  is_active: boolean;
}

const columns: ColumnDef<Yard>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 150 },
  { field: 'code', headerName: 'Code', sortField: 'code', width: 90 },
  { field: 'city', headerName: 'City', sortField: 'city', minWidth: 130, hideOnPhone: true, value: (y) => [y.city?.name, y.state?.code].filter(Boolean).join(', ') },
  { field: 'region', headerName: 'Region', sortField: 'region', minWidth: 120, hideOnPhone: true, value: (y) => y.region?.name ?? '' },
  { field: 'is_active', headerName: 'Status', sortField: 'is_active', width: 110, value: (y) => (y.is_active ? 'Active' : 'Inactive'), render: (y) => <ActiveChip active={y.is_active} /> },
];

const fields: FieldDef<YardForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 8 },
  { name: 'code', label: 'Code', maxLength: 20, width: 4, helperText: 'Optional, e.g. HOU' },
  { name: 'address', label: 'Address', maxLength: 200, section: 'Location' },
  ...stateCityFields<YardForm>(),
  { name: 'zip_code', label: 'ZIP code', maxLength: 20, width: 4 },
  ...latLongFields<YardForm>(),
  { name: 'region_id', label: 'Region', type: 'select', width: 6, useOptions: () => useRegionOptions() },
  { name: 'is_active', label: 'Active', type: 'switch', width: 6 },
];

const empty: YardForm = { name: '', code: '', address: '', state_id: null, city_id: null, zip_code: '', region_id: null, latitude: null, longitude: null, is_active: true };

const body = (v: YardForm) => ({
  name: v.name.trim(), code: v.code.trim().toUpperCase(), address: v.address.trim(), state_id: v.state_id, city_id: v.city_id, zip_code: v.zip_code.trim(),
  region_id: v.region_id, latitude: v.latitude, longitude: v.longitude, is_active: v.is_active,
});

export default function YardPage() {
  const [update] = yardsApi.useUpdate();
  const regions = useRegionOptions();
  const [regionId, setRegionId] = useState<number | null>(null);
  return (
    <ResourceListPage<Yard, YardForm, YardCreate, YardUpdate>
      title="Yards"
      subtitle="Depots where trucks are parked and drivers start their day."
      singular="Yard"
      plural="yards"
      resource={yardsApi}
      permission="yard"
      columns={columns}
      describe={(y) => y.name}
      defaultPageSize={25}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search by name, code, address or city"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'city', label: 'City', type: 'text' },
        { field: 'state', label: 'State', type: 'text' },
        { field: 'zip_code', label: 'ZIP code', type: 'text' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      extraParams={{ region_id: regionId ?? undefined }}
      toolbarExtra={<ToolbarSelect label="Region" allLabel="All regions" value={regionId} options={regions.options} loading={regions.loading} onChange={(v) => setRegionId(v as number | null)} />}
      form={{
        fields,
        emptyValues: empty,
        toValues: (y) => ({ name: y.name, code: y.code, address: y.address, state_id: y.state_id, city_id: y.city_id, zip_code: y.zip_code, region_id: y.region_id, latitude: numOrNull(y.latitude), longitude: numOrNull(y.longitude), is_active: y.is_active }),
        toCreateBody: body,
        toUpdateBody: body,
      }}
      deleteAlternative={(y) => (y.is_active ? { label: 'Deactivate instead', run: () => update(y.id, { is_active: false }) } : undefined)}
      exportFilename="yards"
    />
  );
}
