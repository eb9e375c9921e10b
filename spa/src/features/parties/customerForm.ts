import { addressFields, numOrNull, type AddressValues, type FieldDef } from '@/components/resource';
import { useCompanyTypeOptions, usePaymentMethodOptions, usePaymentTermOptions } from '@/lib/api/lookups';
import { CUSTOMER_STATUSES, type Customer, type CustomerCreate, type CustomerStatus } from './partiesApi';

export interface CustomerForm extends AddressValues {
  name: string;
  account_number: string;
  status: CustomerStatus;
  company_type_id: number | null;
  phone: string;
  email: string;
  payment_term_id: number | null;
  payment_method_id: number | null;
  credit_limit: number | null;
  tax_exempt: boolean;
  tax_exempt_certificate: string;
  tax_exempt_expires: string | null;
  notes: string;
  /** Owned by the pricing app; kept as it is. */
  customer_pricing_type: string;
}

export const statusOptions = (Object.keys(CUSTOMER_STATUSES) as CustomerStatus[]).map((s) => ({ value: s, label: CUSTOMER_STATUSES[s].label }));

export const customerFields: FieldDef<CustomerForm>[] = [
  { name: 'name', label: 'Customer name', required: true, maxLength: 200, width: 8, autoComplete: 'off' },
  { name: 'account_number', label: 'Account number', maxLength: 30, width: 4, helperText: 'Left blank, one is made (C000123)' },
  { name: 'company_type_id', label: 'Company type', type: 'select', width: 6, useOptions: () => useCompanyTypeOptions() },
  { name: 'status', label: 'Status', type: 'select', required: true, width: 6, options: statusOptions },
  { name: 'phone', label: 'Phone', maxLength: 40, width: 6 },
  { name: 'email', label: 'Billing email', type: 'email', width: 6, autoComplete: 'off' },
  ...addressFields<CustomerForm>('Billing address'),
  { name: 'payment_term_id', label: 'Payment term', type: 'select', width: 6, useOptions: () => usePaymentTermOptions(), section: 'Terms and credit' },
  { name: 'payment_method_id', label: 'Payment method', type: 'select', width: 6, useOptions: () => usePaymentMethodOptions() },
  { name: 'credit_limit', label: 'Credit limit ($)', type: 'number', min: 0, step: 0.01, width: 6, helperText: 'Empty for no limit' },
  { name: 'tax_exempt', label: 'Tax exempt', type: 'switch', width: 6 },
  {
    name: 'tax_exempt_certificate', label: 'Tax exemption certificate number', maxLength: 100, width: 12,
    hidden: (_m, v) => !v.tax_exempt, required: (_m, v) => v.tax_exempt,
  },
  { name: 'tax_exempt_expires', label: 'Certificate expires', type: 'date', width: 6, hidden: (_m, v) => !v.tax_exempt, helperText: 'From the next day taxes are charged again' },
  { name: 'notes', label: 'Notes', type: 'textarea', maxLength: 2000 },
];

export const emptyCustomer: CustomerForm = {
  name: '', account_number: '', status: 'active', company_type_id: null, phone: '', email: '',
  address_one: '', address_two: '', state_id: null, city_id: null, zip_code: '',
  payment_term_id: null, payment_method_id: null, credit_limit: null, tax_exempt: false, tax_exempt_certificate: '', tax_exempt_expires: null, notes: '', customer_pricing_type: 'standard',
};

export function customerToValues(c: Customer): CustomerForm {
  return {
    name: c.name, account_number: c.account_number, status: c.status as CustomerStatus, company_type_id: c.company_type_id, phone: c.phone, email: c.email,
    address_one: c.address_one, address_two: c.address_two, state_id: c.state_id, city_id: c.city_id, zip_code: c.zip_code,
    payment_term_id: c.payment_term_id, payment_method_id: c.payment_method_id, credit_limit: numOrNull(c.credit_limit),
    tax_exempt: c.tax_exempt, tax_exempt_certificate: c.tax_exempt_certificate, tax_exempt_expires: c.tax_exempt_expires, notes: c.notes, customer_pricing_type: c.customer_pricing_type,
  };
}

export function customerBody(v: CustomerForm): CustomerCreate {
  return {
    name: v.name.trim(), account_number: v.account_number.trim(), status: v.status, company_type_id: v.company_type_id, phone: v.phone.trim(),
    email: v.email.trim() || null, address_one: v.address_one.trim(), address_two: v.address_two.trim(), state_id: v.state_id, city_id: v.city_id,
    zip_code: v.zip_code.trim(), payment_term_id: v.payment_term_id, payment_method_id: v.payment_method_id, credit_limit: v.credit_limit,
    tax_exempt: v.tax_exempt, tax_exempt_certificate: v.tax_exempt ? v.tax_exempt_certificate.trim() : '', tax_exempt_expires: v.tax_exempt ? v.tax_exempt_expires : null, notes: v.notes.trim(),
    customer_pricing_type: v.customer_pricing_type || 'standard',
  };
}

export const CUSTOMER_IMPORT_COLUMNS =
  'name (required), account_number, status, company_type, address_one, address_two, city, state, zip_code, phone, email, tax_exempt, tax_exempt_certificate, credit_limit, payment_term_id, payment_method_id, notes';

export const money = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '' : Number(v).toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
