import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Percent from '@mui/icons-material/Percent';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ActiveChip, ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { useCityOptions, usePermissions, useProductCategoryOptions, useProductOptions, useStateOptions } from '@/lib/api/lookups';
import { taxesApi, useAddTaxRateMutation, useDeleteTaxRateMutation, type Tax, type TaxCreate, type TaxUpdate } from './pricingApi';

type Kind = 'percent' | 'per_unit' | 'fixed';

interface TaxForm {
  name: string;
  code: string;
  kind: Kind;
  description: string;
  sequence: number | null;
  applies_to_all_states: boolean;
  state_ids: number[];
  applies_to_all_cities: boolean;
  city_ids: number[];
  applies_to_all_products: boolean;
  product_ids: number[];
  applies_to_all_product_categories: boolean;
  category_ids: number[];
  is_taxable: boolean;
  exemptible: boolean;
  is_active: boolean;
}

export const KIND_LABELS: Record<Kind, string> = { percent: '% of the line', per_unit: 'Per gallon / unit', fixed: 'Fixed per document' };

const rateText = (t: { kind: string }, rate: string | number | null | undefined) =>
  rate === null || rate === undefined ? 'No rate in force' : t.kind === 'percent' ? `${Number(rate)} %` : `$${Number(rate)}${t.kind === 'per_unit' ? ' / unit' : ''}`;

const scopeText = (all: boolean, ids: number[], what: string) => (all ? `All ${what}` : ids.length ? `${ids.length} ${what}` : '');

const columns: ColumnDef<Tax>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 170 },
  { field: 'code', headerName: 'Code', sortField: 'code', width: 100 },
  { field: 'kind', headerName: 'Kind', sortField: 'kind', width: 150, hideOnPhone: true, value: (t) => KIND_LABELS[t.kind as Kind] ?? t.kind },
  { field: 'current_rate', headerName: 'Rate today', width: 140, value: (t) => rateText(t, t.current_rate) },
  {
    field: 'state_ids', headerName: 'Applies to', minWidth: 220, hideOnPhone: true,
    value: (t) => [scopeText(t.applies_to_all_states, t.state_ids, 'states'), scopeText(t.applies_to_all_cities, t.city_ids, 'cities'), scopeText(t.applies_to_all_products, t.product_ids, 'products'), scopeText(t.applies_to_all_product_categories, t.category_ids, 'categories')].filter(Boolean).join(' · '),
  },
  { field: 'exemptible', headerName: 'Exempt customers', width: 140, hideOnPhone: true, value: (t) => (t.exemptible ? 'Not charged' : 'Charged') },
  { field: 'is_active', headerName: 'Status', width: 100, value: (t) => (t.is_active ? 'Active' : 'Inactive'), render: (t) => <ActiveChip active={t.is_active} /> },
];

const fields: FieldDef<TaxForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 120, width: 8, helperText: 'e.g. Federal diesel excise' },
  { name: 'code', label: 'Code', required: true, maxLength: 30, width: 4 },
  { name: 'kind', label: 'Kind', type: 'select', required: true, width: 6, options: (Object.keys(KIND_LABELS) as Kind[]).map((k) => ({ value: k, label: KIND_LABELS[k] })) },
  { name: 'sequence', label: 'Order of computation', type: 'number', min: 0, max: 1000, step: 1, width: 6, helperText: 'Lower first: an excise before the sales tax on it' },
  { name: 'description', label: 'Description', maxLength: 300 },
  { name: 'applies_to_all_states', label: 'All states', type: 'switch', width: 4, section: 'Where it applies (the ship-to)' },
  { name: 'state_ids', label: 'States', type: 'multiselect', width: 8, useOptions: () => useStateOptions(), helperText: 'With "All states" and none chosen, every state is listed' },
  { name: 'applies_to_all_cities', label: 'All cities', type: 'switch', width: 4 },
  { name: 'city_ids', label: 'Cities', type: 'multiselect', width: 8, useOptions: () => useCityOptions(null), helperText: 'Leave empty unless the tax is local' },
  { name: 'applies_to_all_products', label: 'All products', type: 'switch', width: 4, section: 'What it applies to' },
  { name: 'product_ids', label: 'Products', type: 'multiselect', width: 8, useOptions: () => useProductOptions() },
  { name: 'applies_to_all_product_categories', label: 'All categories', type: 'switch', width: 4 },
  { name: 'category_ids', label: 'Categories', type: 'multiselect', width: 8, useOptions: () => useProductCategoryOptions() },
  { name: 'is_taxable', label: 'Taxable (later % taxes include it)', type: 'switch', width: 6, section: 'Rules' },
  { name: 'exemptible', label: 'Exempt customers do not pay it', type: 'switch', width: 6 },
  { name: 'is_active', label: 'Active', type: 'switch', width: 6 },
];

const empty: TaxForm = {
  name: '', code: '', kind: 'percent', description: '', sequence: 0,
  applies_to_all_states: false, state_ids: [], applies_to_all_cities: false, city_ids: [],
  applies_to_all_products: false, product_ids: [], applies_to_all_product_categories: false, category_ids: [],
  is_taxable: false, exemptible: true, is_active: true,
};

const toBody = (v: TaxForm): TaxCreate => ({ ...v, name: v.name.trim(), code: v.code.trim().toUpperCase(), description: v.description.trim(), sequence: v.sequence ?? 0 });

function RatesDialog({ tax, onClose }: { tax: Tax; onClose: () => void }) {
  const [addRate, adding] = useAddTaxRateMutation();
  const [deleteRate] = useDeleteTaxRateMutation();
  const perms = usePermissions('tax');
  const [rate, setRate] = useState('');
  const [from, setFrom] = useState(new Date().toLocaleDateString('en-CA'));
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const current = taxesApi.useList({ page: 1, size: 100 }).data?.items.find((t) => t.id === tax.id) ?? tax;
  const unit = tax.kind === 'percent' ? '%' : '$';
  const submit = async () => {
    setError(null);
    try {
      await addRate({ taxId: tax.id, body: { rate: rate.trim(), effective_from: from, effective_to: to || null } }).unwrap();
      toast.success('Tax rate added successfully');
      setRate('');
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Failed to add tax rate');
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Rates of {tax.name}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          The rate in force on the pricing date applies. A new rate closes the open one before it.
        </Typography>
        <Table size="small" aria-label="Tax rates">
          <TableHead>
            <TableRow>
              <TableCell>Rate</TableCell>
              <TableCell>From</TableCell>
              <TableCell>To</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {current.rates.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>No rate yet: the tax is not charged until it has one.</TableCell>
              </TableRow>
            )}
            {current.rates.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{rateText(tax, r.rate)}</TableCell>
                <TableCell>{r.effective_from}</TableCell>
                <TableCell>{r.effective_to ?? 'open'}</TableCell>
                <TableCell align="right">
                  {perms.change && (
                    <IconButton
                      size="small"
                      aria-label={`Delete the rate from ${r.effective_from}`}
                      onClick={async () => {
                        try {
                          await deleteRate(r.id).unwrap();
                          toast.success('Tax rate deleted successfully');
                        } catch (err) {
                          toast.error(isApiError(err) ? err.message : 'Failed to delete tax rate');
                        }
                      }}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {perms.change && (
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' }, mt: 2 }}>
            <TextField label={`Rate (${unit})`} value={rate} onChange={(e) => setRate(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal' } }} required />
            <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} required />
            <TextField label="To (optional)" type="date" value={to} onChange={(e) => setTo(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          </Box>
        )}
        {error && <Alert severity="error" sx={{ mt: 1.5 }}>{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {perms.change && (
          <Button variant="contained" disabled={!rate.trim() || !from || adding.isLoading} onClick={() => void submit()}>
            Add rate
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

export default function TaxPage() {
  const [ratesOf, setRatesOf] = useState<Tax | null>(null);
  return (
    <>
      <ResourceListPage<Tax, TaxForm, TaxCreate, TaxUpdate>
        title="Taxes"
        subtitle="Excise per gallon, sales tax in percent, fixed fees per document — with their rates over time."
        singular="Tax"
        plural="taxes"
        resource={taxesApi}
        permission="tax"
        columns={columns}
        describe={(t) => t.name}
        defaultPageSize={25}
        defaultSort={{ field: 'sequence', order: 'asc' }}
        searchPlaceholder="Search taxes"
        filters={[
          { field: 'name', label: 'Name', type: 'text' },
          { field: 'code', label: 'Code', type: 'text' },
          { field: 'kind', label: 'Kind', type: 'text' },
        ]}
        form={{
          fields,
          emptyValues: empty,
          maxWidth: 'md',
          toValues: (t) => ({
            name: t.name, code: t.code, kind: t.kind as Kind, description: t.description, sequence: t.sequence,
            applies_to_all_states: t.applies_to_all_states, state_ids: t.state_ids, applies_to_all_cities: t.applies_to_all_cities, city_ids: t.city_ids,
            applies_to_all_products: t.applies_to_all_products, product_ids: t.product_ids,
            applies_to_all_product_categories: t.applies_to_all_product_categories, category_ids: t.category_ids,
            is_taxable: t.is_taxable, exemptible: t.exemptible, is_active: t.is_active,
          }),
          toCreateBody: toBody,
          toUpdateBody: toBody,
        }}
        rowActions={(t) => [{ label: 'Rates', icon: <Percent />, onClick: () => setRatesOf(t) }]}
        onRowClick={(t) => setRatesOf(t)}
        exportFilename="taxes"
        headerContent={<Chip size="small" variant="outlined" label="Click a tax to see and add its rates" sx={{ mb: 1 }} />}
      />
      {ratesOf && <RatesDialog tax={ratesOf} onClose={() => setRatesOf(null)} />}
    </>
  );
}
