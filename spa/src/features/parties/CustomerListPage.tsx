import OpenInNew from '@mui/icons-material/OpenInNew';
import PublishedWithChanges from '@mui/icons-material/PublishedWithChanges';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { ResourceListPage, StatusChip, ToolbarSelect, type ColumnDef } from '@/components/resource';
import { useCompanyTypeOptions, usePermissions } from '@/lib/api/lookups';
import { CUSTOMER_IMPORT_COLUMNS, customerBody, customerFields, customerToValues, emptyCustomer, money, statusOptions, type CustomerForm } from './customerForm';
import { CUSTOMER_STATUSES, customersApi, useCustomerStatusMutation, type Customer, type CustomerCreate, type CustomerStatus, type CustomerUpdate } from './partiesApi';
import { StatusDialog } from './StatusDialog';

const columns: ColumnDef<Customer>[] = [
  { field: 'account_number', headerName: 'Account', sortField: 'account_number', width: 110, hideOnPhone: true },
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 200, flex: 2 },
  { field: 'city', headerName: 'City', sortField: 'city', minWidth: 140, hideOnPhone: true, value: (c) => [c.city?.name, c.state?.code].filter(Boolean).join(', ') },
  { field: 'company_type', headerName: 'Type', minWidth: 120, hideOnPhone: true, value: (c) => c.company_type?.company_type ?? '' },
  { field: 'credit_limit', headerName: 'Credit limit', sortField: 'credit_limit', width: 120, align: 'right', hideOnPhone: true, value: (c) => money(c.credit_limit) },
  { field: 'status', headerName: 'Status', sortField: 'status', width: 120, value: (c) => CUSTOMER_STATUSES[c.status as CustomerStatus]?.label ?? c.status, render: (c) => <StatusChip value={c.status} styles={CUSTOMER_STATUSES} /> },
];

export default function CustomerListPage() {
  const navigate = useNavigate();
  const companyTypes = useCompanyTypeOptions();
  const [status, setStatus] = useState<string | null>(null);
  const [companyTypeId, setCompanyTypeId] = useState<number | null>(null);
  const [changing, setChanging] = useState<Customer | null>(null);
  const [setCustomerStatus] = useCustomerStatusMutation();
  const perms = usePermissions('customer');
  const changeStatus = async (c: Customer, s: CustomerStatus) => {
    await setCustomerStatus({ id: c.id, status: s }).unwrap();
    toast.success(`${c.name} is now ${CUSTOMER_STATUSES[s].label.toLowerCase()}`);
  };

  return (
    <>
      <ResourceListPage<Customer, CustomerForm, CustomerCreate, CustomerUpdate>
        title="Customers"
        subtitle="Customer accounts with their ship-tos (delivery locations) and tanks."
        singular="Customer"
        plural="customers"
        resource={customersApi}
        permission="customer"
        columns={columns}
        describe={(c) => c.name}
        defaultPageSize={100}
        defaultSort={{ field: 'name', order: 'asc' }}
        searchPlaceholder="Search name, account, email, phone, city"
        filters={[
          { field: 'name', label: 'Name', type: 'text' },
          { field: 'account_number', label: 'Account number', type: 'text' },
          { field: 'city', label: 'City', type: 'text' },
          { field: 'state', label: 'State code', type: 'text' },
          { field: 'credit_limit', label: 'Credit limit', type: 'number' },
          { field: 'tax_exempt', label: 'Tax exempt', type: 'boolean' },
          { field: 'created_at', label: 'Created', type: 'date' },
        ]}
        extraParams={{ status: status ?? undefined, company_type_id: companyTypeId ?? undefined }}
        toolbarExtra={
          <>
            <ToolbarSelect label="Status" allLabel="All statuses" value={status} options={statusOptions} onChange={(v) => setStatus(v as string | null)} minWidth={150} />
            <ToolbarSelect label="Company type" allLabel="All types" value={companyTypeId} options={companyTypes.options} loading={companyTypes.loading} onChange={(v) => setCompanyTypeId(v as number | null)} />
          </>
        }
        form={{ fields: customerFields, emptyValues: emptyCustomer, toValues: customerToValues, toCreateBody: customerBody, toUpdateBody: customerBody, maxWidth: 'md' }}
        onCreated={(c) => navigate(`/customer/${c.id}`)}
        onRowClick={(c) => navigate(`/customer/${c.id}`)}
        rowActions={(c) => [
          { label: 'Open', icon: <OpenInNew />, onClick: () => { navigate(`/customer/${c.id}`); } },
          { label: 'Change status', icon: <PublishedWithChanges />, onClick: () => setChanging(c), showInMenu: true, hidden: !perms.change },
        ]}
        actionsWidth={150}
        deleteMessage={(c) => `This permanently deletes ${c.name} (${c.account_number}) and its contacts. A customer with ship-tos or tanks cannot be deleted; set it inactive instead.`}
        deleteAlternative={(c) => (c.status !== 'inactive' ? { label: 'Set inactive instead', run: () => changeStatus(c, 'inactive') } : undefined)}
        importHelp={<>Columns: {CUSTOMER_IMPORT_COLUMNS}. States by code or name, cities by name, company types by name.</>}
        exportFilename="customers"
      />
      {changing && (
        <StatusDialog<CustomerStatus>
          title={`Status of ${changing.name}`}
          current={changing.status as CustomerStatus}
          statuses={CUSTOMER_STATUSES}
          onSubmit={(s) => changeStatus(changing, s)}
          onClose={() => setChanging(null)}
        />
      )}
    </>
  );
}
