import StarOutline from '@mui/icons-material/StarBorder';
import Chip from '@mui/material/Chip';
import { toast } from 'react-toastify';
import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { usePermissions } from '@/lib/api/lookups';
import { paymentTermsApi, type PaymentTerm, type PaymentTermCreate, type PaymentTermUpdate } from './paymentsApi';

export interface TermForm {
  name: string;
  net_days: number | null;
  discount_percent: number | null;
  discount_days: number | null;
  is_default: boolean;
}

const columns: ColumnDef<PaymentTerm>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 150 },
  { field: 'summary', headerName: 'Terms', minWidth: 140 },
  { field: 'net_days', headerName: 'Net days', sortField: 'net_days', width: 110, align: 'right', hideOnPhone: true },
  { field: 'discount_percent', headerName: 'Discount', sortField: 'discount_percent', width: 130, align: 'right', hideOnPhone: true, value: (t) => (Number(t.discount_percent) ? `${Number(t.discount_percent)}% in ${t.discount_days} days` : '') },
  { field: 'is_default', headerName: 'Default', sortField: 'is_default', width: 100, value: (t) => (t.is_default ? 'Yes' : ''), render: (t) => (t.is_default ? <Chip size="small" color="primary" label="Default" /> : null) },
];

/** The server's rules: a discount needs 1 or more discount days, no more than the net days; days need a discount. */
export function discountProblem(v: TermForm): string | null {
  const pct = v.discount_percent ?? 0;
  const days = v.discount_days ?? 0;
  if (pct > 0 && days < 1) return 'A discount needs the number of days it applies for';
  if (pct > 0 && v.net_days !== null && days > v.net_days) return 'Discount days cannot be more than the net days';
  if (pct === 0 && days > 0) return 'Discount days need a discount';
  return null;
}

const fields: FieldDef<TermForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 12, helperText: 'e.g. 2/10 Net 30' },
  { name: 'net_days', label: 'Net days', type: 'number', required: true, min: 0, max: 365, step: 1, width: 4, helperText: '0 is due on receipt' },
  { name: 'discount_percent', label: 'Early-payment discount %', type: 'number', min: 0, max: 100, step: 0.01, width: 4 },
  { name: 'discount_days', label: 'Discount days', type: 'number', min: 0, max: 365, step: 1, width: 4, validate: (_v, values) => discountProblem(values) },
  { name: 'is_default', label: 'Default for new customers', type: 'switch', width: 12 },
];

const empty: TermForm = { name: '', net_days: 30, discount_percent: 0, discount_days: 0, is_default: false };

export default function PaymentTermPage() {
  const [update] = paymentTermsApi.useUpdate();
  const perms = usePermissions('payment_term');
  const makeDefault = async (t: PaymentTerm) => {
    try {
      await update(t.id, { is_default: true });
      toast.success(`${t.name} is now the default payment term`);
    } catch (err) {
      toast.error(isApiError(err) ? err.message : 'Failed to update payment term');
    }
  };
  return (
    <ResourceListPage<PaymentTerm, TermForm, PaymentTermCreate, PaymentTermUpdate>
      title="Payment Terms"
      subtitle="When invoices are due, and the discount for paying early."
      singular="Payment term"
      plural="payment terms"
      resource={paymentTermsApi}
      permission="payment_term"
      columns={columns}
      describe={(t) => t.name}
      defaultPageSize={25}
      defaultSort={{ field: 'net_days', order: 'asc' }}
      searchPlaceholder="Search payment terms"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'net_days', label: 'Net days', type: 'number' },
        { field: 'discount_percent', label: 'Discount %', type: 'number' },
        { field: 'is_default', label: 'Default', type: 'boolean' },
      ]}
      form={{
        fields,
        emptyValues: empty,
        toValues: (t) => ({ name: t.name, net_days: t.net_days, discount_percent: Number(t.discount_percent), discount_days: t.discount_days, is_default: t.is_default }),
        toCreateBody: (v) => ({ name: v.name.trim(), net_days: v.net_days ?? 0, discount_percent: v.discount_percent ?? 0, discount_days: v.discount_days ?? 0, is_default: v.is_default }),
        toUpdateBody: (v) => ({ name: v.name.trim(), net_days: v.net_days ?? 0, discount_percent: v.discount_percent ?? 0, discount_days: v.discount_days ?? 0, is_default: v.is_default }),
      }}
      rowActions={(t) => [{ label: 'Make default', icon: <StarOutline />, onClick: () => void makeDefault(t), hidden: t.is_default || !perms.change, showInMenu: true }]}
      exportFilename="payment-terms"
    />
  );
}
