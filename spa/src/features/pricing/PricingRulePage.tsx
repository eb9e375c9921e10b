import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { Link as RouterLink, Route, Routes } from 'react-router-dom';
import { ActiveChip, ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import {
  useCompanyTypeOptions,
  useCustomerOptions,
  useProductCategoryOptions,
  useProductOptions,
  useShipToOptions,
  useStateOptions,
  useSupplierOptions,
  useTerminalOptions,
} from '@/lib/api/lookups';
import PriceCheckPage from './PriceCheckPage';
import { pricingRulesApi, unitPrice, type PricingRule, type PricingRuleCreate, type PricingRuleUpdate } from './pricingApi';

type Basis = 'rack' | 'last_cost' | 'fixed';
type RackMode = 'named' | 'lowest' | 'average';
type MarginType = 'per_unit' | 'percent';

interface RuleForm {
  name: string;
  priority: number | null;
  customer_id: number | null;
  ship_to_id: number | null;
  company_type_id: number | null;
  state_id: number | null;
  product_id: number | null;
  category_id: number | null;
  basis: Basis;
  rack_mode: RackMode;
  terminal_id: number | null;
  supplier_id: number | null;
  fixed_price: number | null;
  margin_type: MarginType;
  margin: number | null;
  freight_per_unit: number | null;
  minimum_price: number | null;
  minimum_margin: number | null;
  rounding: string;
  effective_from: string | null;
  effective_to: string | null;
  is_active: boolean;
}

const BASIS_LABELS: Record<Basis, string> = { rack: 'Rack', last_cost: 'Our last cost', fixed: 'Fixed price' };
const MODE_LABELS: Record<RackMode, string> = { named: 'a named supplier', lowest: 'the lowest supplier', average: 'the average of suppliers' };

export function describeBasis(r: PricingRule): string {
  const margin = r.margin_type === 'percent' ? `${Number(r.margin)} %` : `$${unitPrice(r.margin)}`;
  const freight = Number(r.freight_per_unit) ? ` + freight $${unitPrice(r.freight_per_unit)}` : '';
  const base = r.basis === 'rack' ? `Rack (${MODE_LABELS[r.rack_mode as RackMode] ?? r.rack_mode})` : r.basis === 'fixed' ? `Fixed $${unitPrice(r.fixed_price)}` : 'Last cost';
  return `${base} + ${margin}${freight}`;
}

const columns: ColumnDef<PricingRule>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 170 },
  {
    field: 'scope', headerName: 'Scope', minWidth: 260, value: (r) => r.scope.join(', '),
    render: (r) => (
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', py: 0.5 }}>
        {r.scope.map((s) => <Chip key={s} size="small" label={s} variant="outlined" />)}
      </Box>
    ),
  },
  { field: 'basis', headerName: 'Price', sortField: 'basis', minWidth: 240, hideOnPhone: true, value: describeBasis },
  { field: 'priority', headerName: 'Priority', sortField: 'priority', width: 90, align: 'right', hideOnPhone: true },
  { field: 'specificity', headerName: 'Specificity', width: 100, align: 'right', hideOnPhone: true },
  { field: 'is_active', headerName: 'Status', width: 100, hideOnPhone: true, value: (r) => (r.is_active ? 'Active' : 'Inactive'), render: (r) => <ActiveChip active={r.is_active} /> },
];

const fields: FieldDef<RuleForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 120, width: 8 },
  { name: 'priority', label: 'Priority', type: 'number', min: -1000, max: 1000, step: 1, width: 4, helperText: 'Higher wins among equally specific rules' },
  { name: 'customer_id', label: 'Customer', type: 'select', width: 6, useOptions: () => useCustomerOptions(), section: 'Scope (empty matches anything; the most specific rule wins)', onValueChange: () => ({ ship_to_id: null }) },
  { name: 'ship_to_id', label: 'Ship-to', type: 'select', width: 6, useOptions: (v) => useShipToOptions(v.customer_id), disabled: (_m, v) => !v.customer_id, helperText: 'Choose a customer first' },
  { name: 'company_type_id', label: 'Customer company type', type: 'select', width: 6, useOptions: () => useCompanyTypeOptions() },
  { name: 'state_id', label: 'Ship-to state', type: 'select', width: 6, useOptions: () => useStateOptions() },
  { name: 'product_id', label: 'Product', type: 'select', width: 6, useOptions: () => useProductOptions() },
  { name: 'category_id', label: 'Product category', type: 'select', width: 6, useOptions: () => useProductCategoryOptions() },
  { name: 'basis', label: 'Basis', type: 'select', required: true, width: 6, options: (Object.keys(BASIS_LABELS) as Basis[]).map((k) => ({ value: k, label: BASIS_LABELS[k] })), section: 'Price' },
  { name: 'rack_mode', label: 'Rack of', type: 'select', width: 6, hidden: (_m, v) => v.basis !== 'rack', options: (Object.keys(MODE_LABELS) as RackMode[]).map((k) => ({ value: k, label: MODE_LABELS[k] })) },
  { name: 'terminal_id', label: 'Terminal', type: 'select', width: 6, hidden: (_m, v) => v.basis !== 'rack', required: (_m, v) => v.basis === 'rack', useOptions: () => useTerminalOptions() },
  { name: 'supplier_id', label: 'Supplier', type: 'select', width: 6, hidden: (_m, v) => v.basis !== 'rack' || v.rack_mode !== 'named', required: (_m, v) => v.basis === 'rack' && v.rack_mode === 'named', useOptions: () => useSupplierOptions() },
  { name: 'fixed_price', label: 'Fixed price ($/unit)', type: 'number', min: 0, step: 0.0001, width: 6, hidden: (_m, v) => v.basis !== 'fixed', required: (_m, v) => v.basis === 'fixed' },
  { name: 'margin_type', label: 'Margin', type: 'select', width: 6, options: [{ value: 'per_unit', label: 'Per unit ($)' }, { value: 'percent', label: 'Percent of the basis' }] },
  { name: 'margin', label: 'Margin amount', type: 'number', step: 0.0001, width: 6 },
  { name: 'freight_per_unit', label: 'Freight ($/unit)', type: 'number', min: 0, step: 0.0001, width: 6 },
  { name: 'minimum_price', label: 'Minimum price ($/unit)', type: 'number', min: 0, step: 0.0001, width: 6 },
  { name: 'minimum_margin', label: 'Margin guard: minimum margin ($/unit)', type: 'number', step: 0.0001, width: 6, helperText: 'Lines under it are listed when the rack changes' },
  { name: 'rounding', label: 'Round to', type: 'select', width: 6, options: ['0.0001', '0.001', '0.01', '0.05'].map((s) => ({ value: s, label: `$${s}` })) },
  { name: 'effective_from', label: 'From', type: 'date', width: 4, section: 'When' },
  { name: 'effective_to', label: 'To', type: 'date', width: 4 },
  { name: 'is_active', label: 'Active', type: 'switch', width: 4 },
];

const empty: RuleForm = {
  name: '', priority: 0, customer_id: null, ship_to_id: null, company_type_id: null, state_id: null, product_id: null, category_id: null,
  basis: 'rack', rack_mode: 'lowest', terminal_id: null, supplier_id: null, fixed_price: null, margin_type: 'per_unit', margin: 0,
  freight_per_unit: 0, minimum_price: null, minimum_margin: null, rounding: '0.0001', effective_from: null, effective_to: null, is_active: true,
};

const n = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));

const toBody = (v: RuleForm): PricingRuleCreate => ({
  ...v,
  name: v.name.trim(),
  priority: v.priority ?? 0,
  margin: v.margin ?? 0,
  freight_per_unit: v.freight_per_unit ?? 0,
  supplier_id: v.basis === 'rack' && v.rack_mode === 'named' ? v.supplier_id : null,
  terminal_id: v.basis === 'rack' ? v.terminal_id : null,
  fixed_price: v.basis === 'fixed' ? v.fixed_price : null,
  rounding: v.rounding || '0.0001',
});

function RuleList() {
  return (
    <ResourceListPage<PricingRule, RuleForm, PricingRuleCreate, PricingRuleUpdate>
      title="Pricing Rules"
      subtitle="How selling prices are made: rack, cost or fixed, plus margin and freight. The most specific rule wins, then the highest priority."
      singular="Pricing rule"
      plural="pricing rules"
      resource={pricingRulesApi}
      permission="pricing_rule"
      columns={columns}
      describe={(r) => r.name}
      defaultPageSize={25}
      defaultSort={{ field: 'priority', order: 'desc' }}
      searchPlaceholder="Search rules, customers, products"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'basis', label: 'Basis', type: 'text' },
        { field: 'priority', label: 'Priority', type: 'number' },
      ]}
      headerActions={
        <Button component={RouterLink} to="/pricing-rule/price-check" variant="outlined" startIcon={<FactCheckOutlined />}>
          Price check
        </Button>
      }
      form={{
        fields,
        emptyValues: empty,
        maxWidth: 'md',
        toValues: (r) => ({
          name: r.name, priority: r.priority, customer_id: r.customer_id, ship_to_id: r.ship_to_id, company_type_id: r.company_type_id,
          state_id: r.state_id, product_id: r.product_id, category_id: r.category_id, basis: r.basis as Basis, rack_mode: r.rack_mode as RackMode,
          terminal_id: r.terminal_id, supplier_id: r.supplier_id, fixed_price: n(r.fixed_price), margin_type: r.margin_type as MarginType,
          margin: n(r.margin), freight_per_unit: n(r.freight_per_unit), minimum_price: n(r.minimum_price), minimum_margin: n(r.minimum_margin),
          rounding: String(Number(r.rounding)), effective_from: r.effective_from, effective_to: r.effective_to, is_active: r.is_active,
        }),
        toCreateBody: toBody,
        toUpdateBody: toBody,
      }}
      exportFilename="pricing-rules"
    />
  );
}

/** /pricing-rule: the rules; /pricing-rule/price-check: what a customer pays, explained. */
export default function PricingRulePage() {
  return (
    <Routes>
      <Route index element={<RuleList />} />
      <Route path="price-check" element={<PriceCheckPage />} />
    </Routes>
  );
}
