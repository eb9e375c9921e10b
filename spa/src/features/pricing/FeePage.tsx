import { ActiveChip, ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { useCustomerOptions } from '@/lib/api/lookups';
import { feesApi, money, type Fee, type FeeCreate, type FeeUpdate } from './pricingApi';

type FeeType = 'flat' | 'per_unit' | 'percentage';
type AmountType = 'fixed_amount' | 'percentage';

interface FeeForm {
  name: string;
  fee_code: string;
  erp_code: string;
  fee_type: FeeType;
  amount_type: AmountType;
  rate: number | null;
  quantity: number | null;
  customer_id: number | null;
  description: string;
  is_active: boolean;
}

const TYPE_LABELS: Record<FeeType, string> = { flat: 'Flat', per_unit: 'Per unit (gallon)', percentage: 'Percent of the order' };

const columns: ColumnDef<Fee>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'fee_code', headerName: 'Code', sortField: 'fee_code', width: 110 },
  { field: 'fee_type', headerName: 'Type', sortField: 'fee_type', width: 150, value: (f) => TYPE_LABELS[f.fee_type as FeeType] ?? f.fee_type },
  { field: 'rate', headerName: 'Rate', sortField: 'rate', width: 110, align: 'right', value: (f) => (f.fee_type === 'percentage' || f.amount_type === 'percentage' ? `${Number(f.rate)} %` : money(f.rate)) },
  { field: 'quantity', headerName: 'Qty', width: 80, align: 'right', hideOnPhone: true, value: (f) => String(Number(f.quantity)) },
  { field: 'subtotal', headerName: 'Subtotal', width: 110, align: 'right', hideOnPhone: true, value: (f) => (f.fee_type === 'percentage' || f.amount_type === 'percentage' ? 'per order' : money(f.subtotal)) },
  { field: 'customer_name', headerName: 'Customer', minWidth: 150, hideOnPhone: true, value: (f) => f.customer_name ?? 'Everyone' },
  { field: 'is_active', headerName: 'Status', width: 100, hideOnPhone: true, value: (f) => (f.is_active ? 'Active' : 'Inactive'), render: (f) => <ActiveChip active={f.is_active} /> },
];

const fields: FieldDef<FeeForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 120, width: 8, helperText: 'e.g. Delivery, Environmental, Hazmat' },
  { name: 'fee_code', label: 'Fee code', maxLength: 30, width: 4 },
  { name: 'fee_type', label: 'Fee type', type: 'select', required: true, width: 6, options: (Object.keys(TYPE_LABELS) as FeeType[]).map((k) => ({ value: k, label: TYPE_LABELS[k] })) },
  { name: 'amount_type', label: 'Amount type', type: 'select', required: true, width: 6, options: [{ value: 'fixed_amount', label: 'Fixed amount' }, { value: 'percentage', label: 'Percentage' }] },
  { name: 'rate', label: 'Rate', type: 'number', required: true, min: 0, step: 0.0001, width: 6, helperText: 'Dollars, or percent for a percentage fee', validate: (v, values) => ((values.fee_type === 'percentage' || values.amount_type === 'percentage') && Number(v) > 100 ? 'At most 100 %' : null) },
  { name: 'quantity', label: 'Quantity', type: 'number', min: 0, step: 0.0001, width: 6, helperText: 'Default 1' },
  { name: 'erp_code', label: 'Accounting item code', maxLength: 60, width: 6 },
  { name: 'customer_id', label: 'Only for customer', type: 'select', width: 6, useOptions: () => useCustomerOptions(), helperText: 'Empty: every customer' },
  { name: 'description', label: 'Description', maxLength: 300 },
  { name: 'is_active', label: 'Active', type: 'switch' },
];

const empty: FeeForm = { name: '', fee_code: '', erp_code: '', fee_type: 'flat', amount_type: 'fixed_amount', rate: null, quantity: 1, customer_id: null, description: '', is_active: true };

const toBody = (v: FeeForm): FeeCreate => ({
  name: v.name.trim(), fee_code: v.fee_code.trim().toUpperCase(), erp_code: v.erp_code.trim(), fee_type: v.fee_type, amount_type: v.amount_type,
  rate: v.rate ?? 0, quantity: v.quantity ?? 1, customer_id: v.customer_id, description: v.description.trim(), is_active: v.is_active,
});

export default function FeePage() {
  return (
    <ResourceListPage<Fee, FeeForm, FeeCreate, FeeUpdate>
      title="Fees"
      subtitle="Delivery, environmental, hazmat and small-load fees added to orders."
      singular="Fee"
      plural="fees"
      resource={feesApi}
      permission="fee"
      columns={columns}
      describe={(f) => f.name}
      defaultPageSize={25}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search fees by name or code"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'fee_code', label: 'Code', type: 'text' },
        { field: 'rate', label: 'Rate', type: 'number' },
      ]}
      form={{
        fields,
        emptyValues: empty,
        toValues: (f) => ({
          name: f.name, fee_code: f.fee_code, erp_code: f.erp_code, fee_type: f.fee_type as FeeType, amount_type: f.amount_type as AmountType,
          rate: Number(f.rate), quantity: Number(f.quantity), customer_id: f.customer_id, description: f.description, is_active: f.is_active,
        }),
        toCreateBody: toBody,
        toUpdateBody: toBody,
      }}
      exportFilename="fees"
    />
  );
}
