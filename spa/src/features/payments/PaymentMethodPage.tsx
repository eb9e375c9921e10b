import { ResourceListPage, ActiveChip, type ColumnDef, type FieldDef } from '@/components/resource';
import { paymentMethodsApi, type PaymentMethod, type PaymentMethodCreate, type PaymentMethodUpdate } from './paymentsApi';

interface MethodForm {
  name: string;
  code: string;
  is_active: boolean;
}

const columns: ColumnDef<PaymentMethod>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'code', headerName: 'Code', sortField: 'code', width: 130 },
  { field: 'is_active', headerName: 'Status', sortField: 'is_active', width: 110, value: (m) => (m.is_active ? 'Active' : 'Inactive'), render: (m) => <ActiveChip active={m.is_active} /> },
];

const fields: FieldDef<MethodForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 8 },
  { name: 'code', label: 'Code', required: true, maxLength: 20, width: 4, pattern: { regex: /^[A-Za-z0-9_-]+$/, message: 'Use letters, digits, - and _ only' }, helperText: 'Used in accounting exports, e.g. ACH' },
  { name: 'is_active', label: 'Active (offered on new customers)', type: 'switch' },
];

export default function PaymentMethodPage() {
  const [update] = paymentMethodsApi.useUpdate();
  return (
    <ResourceListPage<PaymentMethod, MethodForm, PaymentMethodCreate, PaymentMethodUpdate>
      title="Payment Methods"
      subtitle="How customers pay: ACH, check, card, wire, fuel card."
      singular="Payment method"
      plural="payment methods"
      resource={paymentMethodsApi}
      permission="payment_method"
      columns={columns}
      describe={(m) => m.name}
      defaultPageSize={25}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search by name or code"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'code', label: 'Code', type: 'text' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      form={{
        fields,
        emptyValues: { name: '', code: '', is_active: true },
        toValues: (m) => ({ name: m.name, code: m.code, is_active: m.is_active }),
        toCreateBody: (v) => ({ name: v.name.trim(), code: v.code.trim().toUpperCase(), is_active: v.is_active }),
        toUpdateBody: (v) => ({ name: v.name.trim(), code: v.code.trim().toUpperCase(), is_active: v.is_active }),
      }}
      deleteAlternative={(m) => (m.is_active ? { label: 'Deactivate instead', run: () => update(m.id, { is_active: false }) } : undefined)}
      exportFilename="payment-methods"
    />
  );
}
