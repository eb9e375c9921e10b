import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { isApiError } from '@/lib/api/errors';
import { useQboSetTaxSettingsMutation, useQboTaxCodesQuery, type Connection } from './quickbooksApi';

/** Outside the US every QBO invoice line names a tax code: the one for taxed lines and the one for
 * lines without sales tax are chosen here, from the connected company's codes. */
export function TaxCodesCard({ conn }: { conn: Connection }) {
  const codes = useQboTaxCodesQuery();
  const [save, saving] = useQboSetTaxSettingsMutation();
  const [taxed, setTaxed] = useState(conn.sales_tax_code);
  const [exempt, setExempt] = useState(conn.exempt_tax_code);
  const active = (codes.data ?? []).filter((c) => c.active);
  const unset = !conn.sales_tax_code || !conn.exempt_tax_code;
  const changed = taxed !== conn.sales_tax_code || exempt !== conn.exempt_tax_code;

  const submit = async () => {
    try {
      await save({ sales_tax_code: taxed, exempt_tax_code: exempt }).unwrap();
      toast.success('Tax codes saved');
    } catch (err) {
      toast.error(isApiError(err) ? err.message : 'Failed to save the tax codes');
    }
  };

  const select = (label: string, value: string, onChange: (v: string) => void, testId: string) => (
    <TextField
      select
      size="small"
      label={label}
      value={active.some((c) => c.id === value) ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 220, flex: '1 1 220px' }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {active.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="qbo-tax-codes">
      <CardContent sx={{ p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } }}>
        <Typography component="h2" variant="h6" sx={{ mb: 0.5 }}>
          Sales tax codes
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          Your company is outside the US: each invoice line posted to QuickBooks names a tax code.
        </Typography>
        {unset && (
          <Alert severity="warning" sx={{ mb: 1.5 }}>
            Choose both codes before posting invoices.
          </Alert>
        )}
        {codes.error && <Alert severity="error" sx={{ mb: 1.5 }}>{isApiError(codes.error) ? codes.error.message : 'Failed to fetch the tax codes'}</Alert>}
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
          {select('Lines with sales tax', taxed, setTaxed, 'qbo-sales-tax-code')}
          {select('Lines without sales tax', exempt, setExempt, 'qbo-exempt-tax-code')}
          <Button variant="contained" onClick={() => void submit()} disabled={!taxed || !exempt || !changed || saving.isLoading}>
            Save tax codes
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
