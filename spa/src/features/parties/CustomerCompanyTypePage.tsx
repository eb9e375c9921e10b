import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { companyTypesApi, type CompanyType, type CompanyTypeCreate, type CompanyTypeUpdate } from './partiesApi';

interface CompanyTypeForm {
  company_type: string;
  description: string;
}

const columns: ColumnDef<CompanyType>[] = [
  { field: 'company_type', headerName: 'Company type', sortField: 'company_type', minWidth: 180 },
  { field: 'description', headerName: 'Description', minWidth: 220, flex: 2, hideOnPhone: true },
];

const fields: FieldDef<CompanyTypeForm>[] = [
  { name: 'company_type', label: 'Company type', required: true, maxLength: 100, helperText: 'e.g. Construction, Agriculture' },
  { name: 'description', label: 'Description', type: 'textarea', maxLength: 300 },
];

const body = (v: CompanyTypeForm) => ({ company_type: v.company_type.trim(), description: v.description.trim() });

export default function CustomerCompanyTypePage() {
  return (
    <ResourceListPage<CompanyType, CompanyTypeForm, CompanyTypeCreate, CompanyTypeUpdate>
      title="Customer Company Types"
      subtitle="Group customers by the kind of business they run."
      singular="Company type"
      plural="company types"
      resource={companyTypesApi}
      permission="customer_company_type"
      columns={columns}
      describe={(t) => t.company_type}
      defaultPageSize={25}
      defaultSort={{ field: 'company_type', order: 'asc' }}
      searchPlaceholder="Search company types"
      filters={[{ field: 'company_type', label: 'Company type', type: 'text' }]}
      form={{ fields, emptyValues: { company_type: '', description: '' }, toValues: (t) => ({ company_type: t.company_type, description: t.description }), toCreateBody: body, toUpdateBody: body }}
      deleteMessage={(t) => `This deletes the company type ${t.company_type}. A type that customers have cannot be deleted.`}
      exportFilename="customer-company-types"
    />
  );
}
