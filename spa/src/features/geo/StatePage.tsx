import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { statesApi, type State, type StateCreate, type StateUpdate } from './geoApi';

interface StateForm {
  name: string;
  code: string;
  country: string;
}

const columns: ColumnDef<State>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'code', headerName: 'Code', sortField: 'code', width: 110 },
  { field: 'country', headerName: 'Country', sortField: 'country', width: 110 },
];

const fields: FieldDef<StateForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 12 },
  { name: 'code', label: 'Code', required: true, maxLength: 10, width: 6, pattern: { regex: /^[A-Za-z]{1,10}$/, message: 'Use letters only, e.g. TX' } },
  { name: 'country', label: 'Country', maxLength: 2, width: 6, pattern: { regex: /^[A-Za-z]{2}$/, message: 'Two letters, e.g. US' } },
];

export default function StatePage() {
  return (
    <ResourceListPage<State, StateForm, StateCreate, StateUpdate>
      title="States"
      subtitle="States you deliver in; addresses pick their cities from them."
      singular="State"
      plural="states"
      resource={statesApi}
      permission="state"
      columns={columns}
      describe={(s) => s.name}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search by name or code"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'code', label: 'Code', type: 'text' },
      ]}
      form={{
        fields,
        emptyValues: { name: '', code: '', country: 'US' },
        toValues: (s) => ({ name: s.name, code: s.code, country: s.country }),
        toCreateBody: (v) => ({ name: v.name.trim(), code: v.code.trim().toUpperCase(), country: v.country.trim().toUpperCase() || 'US' }),
        toUpdateBody: (v) => ({ name: v.name.trim(), code: v.code.trim().toUpperCase(), country: v.country.trim().toUpperCase() || 'US' }),
      }}
      exportFilename="states"
    />
  );
}
