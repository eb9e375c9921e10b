import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { regionsApi, type Region, type RegionCreate, type RegionUpdate } from './geoApi';

interface RegionForm {
  name: string;
  code: string;
  description: string;
}

const columns: ColumnDef<Region>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'code', headerName: 'Code', sortField: 'code', width: 110 },
  { field: 'description', headerName: 'Description', minWidth: 200, flex: 2, hideOnPhone: true },
];

const fields: FieldDef<RegionForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 8 },
  { name: 'code', label: 'Code', maxLength: 20, width: 4, pattern: { regex: /^[A-Za-z0-9_-]+$/, message: 'Use letters, digits, - and _ only' }, helperText: 'Optional, e.g. GC' },
  { name: 'description', label: 'Description', type: 'textarea', maxLength: 500 },
];

export default function RegionPage() {
  return (
    <ResourceListPage<Region, RegionForm, RegionCreate, RegionUpdate>
      title="Regions"
      subtitle="Delivery regions that group yards and drivers."
      singular="Region"
      plural="regions"
      resource={regionsApi}
      permission="region"
      columns={columns}
      describe={(r) => r.name}
      defaultPageSize={25}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search regions"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'code', label: 'Code', type: 'text' },
      ]}
      form={{
        fields,
        emptyValues: { name: '', code: '', description: '' },
        toValues: (r) => ({ name: r.name, code: r.code, description: r.description }),
        toCreateBody: (v) => ({ name: v.name.trim(), code: v.code.trim().toUpperCase(), description: v.description.trim() }),
        toUpdateBody: (v) => ({ name: v.name.trim(), code: v.code.trim().toUpperCase(), description: v.description.trim() }),
      }}
      deleteMessage={(r) => `This deletes the region ${r.name}. A region that yards or drivers belong to cannot be deleted.`}
      exportFilename="regions"
    />
  );
}
