import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import type { Option } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { useCustomerOptions, useProductOptions, useShipToOptions, type LookupOption } from '@/lib/api/lookups';
import { feesApi, money, unitPrice, useLazyExplainPriceQuery } from './pricingApi';

const tomorrow = () => {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  return d.toLocaleDateString('en-CA');
};
/** Says what the default is: prices are checked for tomorrow's deliveries unless another date is picked. */
const dateHelp = (date: string) => (date === tomorrow() ? 'Tomorrow: the default, the next delivery day' : 'Defaults to tomorrow');

function Pick({ label, options, value, onChange, loading, disabled, testId }: {
  label: string; options: LookupOption[]; value: number | null; onChange: (v: number | null) => void; loading?: boolean; disabled?: boolean; testId: string;
}) {
  return (
    <Autocomplete<LookupOption, false>
      options={options}
      loading={loading}
      disabled={disabled}
      value={options.find((o) => o.value === value) ?? null}
      onChange={(_, next) => onChange(next ? next.value : null)}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      renderInput={(params) => <TextField {...params} label={label} data-testid={testId} />}
    />
  );
}

export default function PriceCheckPage() {
  const customers = useCustomerOptions();
  const products = useProductOptions();
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [shipToId, setShipToId] = useState<number | null>(null);
  const shipTos = useShipToOptions(customerId);
  const [productId, setProductId] = useState<number | null>(null);
  const [quantity, setQuantity] = useState('3000');
  const [date, setDate] = useState(tomorrow());
  const [feeIds, setFeeIds] = useState<number[]>([]);
  const fees = feesApi.useList({ page: 1, size: 100, sort_by: 'name', order: 'asc' });
  const feeOptions: Option[] = (fees.data?.items ?? []).filter((f) => f.is_active && (!f.customer_id || f.customer_id === customerId)).map((f) => ({ value: f.id, label: f.name }));
  const [explain, result] = useLazyExplainPriceQuery();
  const qty = Number(quantity);
  const valid = !!customerId && !!productId && quantity.trim() !== '' && qty > 0 && !!date;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    if (customerId === null || productId === null) return;
    void explain({ customer_id: customerId, ship_to_id: shipToId ?? undefined, product_id: productId, quantity: quantity.trim(), pricing_date: date, fee_ids: feeIds.join(',') || undefined });
  };
  const doc = result.data;
  const error = result.error;
  const line = doc?.lines[0];
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

  return (
    <PageBody>
      <Button component={RouterLink} to="/pricing-rule" startIcon={<ArrowBack />} size="small" sx={{ mb: 1 }}>
        Pricing rules
      </Button>
      <PageHeader title="Price Check" subtitle="What a customer pays for a product at a ship-to on a date — and why." />
      <Paper variant="outlined" component="form" onSubmit={submit} sx={{ p: 2, mb: 2.5, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        <Pick label="Customer" testId="pc-customer" options={customers.options} loading={customers.loading} value={customerId} onChange={(v) => { setCustomerId(v); setShipToId(null); }} />
        <Pick label="Ship-to" testId="pc-ship-to" options={shipTos.options} loading={shipTos.loading} value={shipToId} onChange={setShipToId} disabled={!customerId} />
        <Pick label="Product" testId="pc-product" options={products.options} loading={products.loading} value={productId} onChange={setProductId} />
        <TextField label="Quantity" value={quantity} onChange={(e) => setQuantity(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pc-quantity' } }} error={quantity.trim() !== '' && !(qty > 0)} helperText={quantity.trim() !== '' && !(qty > 0) ? 'More than 0' : 'Gallons or units'} />
        <TextField
          label="Pricing date"
          type="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
          helperText={dateHelp(date)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'pc-date' } }}
        />
        <Autocomplete<Option, true>
          multiple
          options={feeOptions}
          loading={fees.isLoading}
          value={feeOptions.filter((o) => feeIds.includes(o.value as number))}
          onChange={(_, next) => setFeeIds(next.map((o) => o.value as number))}
          isOptionEqualToValue={(a, b) => a.value === b.value}
          renderInput={(params) => <TextField {...params} label="Fees (optional)" />}
        />
        <Box sx={{ gridColumn: { md: '1 / -1' }, display: 'flex', gap: 1, alignItems: 'center' }}>
          <Button type="submit" variant="contained" disabled={!valid || result.isFetching}>
            Check price
          </Button>
          {result.isFetching && <CircularProgress size={22} aria-label="Pricing" />}
          {!customerId || !productId ? <Typography variant="body2" color="text.secondary">Choose a customer and a product.</Typography> : null}
        </Box>
      </Paper>

      {error && !result.isFetching && <Alert severity="error" sx={{ mb: 2 }}>{isApiError(error) ? error.message : 'Failed to price'}</Alert>}

      {doc && line && !error && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 3fr' } }} data-testid="price-check-result">
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="overline" color="text.secondary">Unit price</Typography>
            <Typography variant="h4" component="div" data-testid="pc-unit-price">${unitPrice(line.unit_price)}</Typography>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', my: 1 }}>
              <Chip size="small" label={`Basis: ${text(line.breakdown.basis).replace('_', ' ')}`} />
              {line.breakdown.rule_name ? <Chip size="small" variant="outlined" label={`Rule: ${text(line.breakdown.rule_name)}`} /> : null}
              {line.breakdown.margin_ok === false ? <Chip size="small" color="warning" label="Under the margin guard" /> : null}
              {doc.assumed.ship_to_name ? <Chip size="small" color="info" variant="outlined" data-testid="pc-assumed-ship-to" label={`Assumed ship-to: ${doc.assumed.ship_to_name}`} /> : null}
              {doc.assumed.terminal_name ? <Chip size="small" variant="outlined" label={`Terminal: ${doc.assumed.terminal_name}`} /> : null}
            </Box>
            <Divider sx={{ my: 1.5 }} />
            <Table size="small" aria-label="Totals">
              <TableBody>
                <TableRow><TableCell>{line.quantity} × ${unitPrice(line.unit_price)}</TableCell><TableCell align="right">{money(doc.subtotal)}</TableCell></TableRow>
                {doc.taxes.map((t) => (
                  <TableRow key={t.tax_id}><TableCell>{t.name} ({t.kind === 'percent' ? `${Number(t.rate)} %` : `$${Number(t.rate)}${t.kind === 'per_unit' ? '/unit' : ''}`})</TableCell><TableCell align="right">{money(t.amount)}</TableCell></TableRow>
                ))}
                {doc.fees.map((f) => (
                  <TableRow key={f.key}><TableCell>Fee: {f.name}</TableCell><TableCell align="right">{money(f.subtotal)}</TableCell></TableRow>
                ))}
                <TableRow><TableCell sx={{ fontWeight: 700 }}>Total</TableCell><TableCell align="right" sx={{ fontWeight: 700 }} data-testid="pc-total">{money(doc.total)}</TableCell></TableRow>
              </TableBody>
            </Table>
          </Paper>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h6" component="h2" gutterBottom>How this price is made</Typography>
            <List dense disablePadding data-testid="pc-explanation">
              {doc.explanation.map((s, i) => (
                <ListItem key={i} disableGutters sx={{ display: 'list-item', listStyle: 'decimal', ml: 2.5 }}>
                  <Typography variant="body2">{s}</Typography>
                </ListItem>
              ))}
            </List>
          </Paper>
        </Box>
      )}
    </PageBody>
  );
}
