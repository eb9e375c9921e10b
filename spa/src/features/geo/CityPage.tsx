import { useState } from 'react';
import { ResourceListPage, ToolbarSelect, type ColumnDef, type FieldDef } from '@/components/resource';
import { useStateOptions } from '@/lib/api/lookups';
import { citiesApi, type City, type CityCreate, type CityUpdate } from './geoApi';

interface CityForm {
  name: string;
  state_id: number | null;
}

const columns: ColumnDef<City>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'state', headerName: 'State', sortField: 'state', minWidth: 140, value: (c) => (c.state ? `${c.state.name} (${c.state.code})` : '') },
];

const fields: FieldDef<CityForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 6 },
  { name: 'state_id', label: 'State', type: 'select', required: true, width: 6, useOptions: () => useStateOptions() },
];

export default function CityPage() {
  const states = useStateOptions();
  const [stateId, setStateId] = useState<number | null>(null);
  return (
    <ResourceListPage<City, CityForm, CityCreate, CityUpdate>
      title="Cities"
      subtitle="Cities you deliver in, by state."
      singular="City"
      plural="cities"
      resource={citiesApi}
      permission="city"
      columns={columns}
      describe={(c) => (c.state ? `${c.name}, ${c.state.code}` : c.name)}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search by city or state"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'state', label: 'State', type: 'text' },
      ]}
      toolbarExtra={<ToolbarSelect label="State" allLabel="All states" value={stateId} options={states.options} loading={states.loading} onChange={(v) => setStateId(v as number | null)} />}
      rowFilter={stateId ? (c) => c.state_id === stateId : undefined}
      form={{
        fields,
        emptyValues: { name: '', state_id: stateId },
        toValues: (c) => ({ name: c.name, state_id: c.state_id }),
        toCreateBody: (v) => ({ name: v.name.trim(), state_id: v.state_id! }),
        toUpdateBody: (v) => ({ name: v.name.trim(), state_id: v.state_id! }),
      }}
      exportFilename="cities"
    />
  );
}
