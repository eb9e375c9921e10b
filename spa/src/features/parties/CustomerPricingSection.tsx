import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { FormDialog, type FieldDef } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { usePermissions, useProductOptions, useSupplierOptions, useTerminalOptions } from '@/lib/api/lookups';
import {
  PRICING_TYPES,
  useAddCustomerPricingMutation,
  useCustomerPricingQuery,
  useDeleteCustomerPricingMutation,
  useUpdateCustomerPricingMutation,
} from './customerPricingApi';
import type { Customer } from './partiesApi';

interface ItemForm {
  product_id: number | null;
  unit_price: number | null;
  margin: number | null;
  terminal_id: number | null;
  supplier_id: number | null;
  freight_per_unit: number | null;
}

const fields = (type: string): FieldDef<ItemForm>[] => [
  { name: 'product_id', label: 'Product', type: 'select', required: true, width: 12, useOptions: () => useProductOptions() },
  { name: 'unit_price', label: 'Unit price ($)', type: 'number', min: 0, step: 0.0001, width: 6, required: type === 'fixed', hidden: () => type !== 'fixed' },
  { name: 'margin', label: 'Margin ($/unit)', type: 'number', step: 0.0001, width: 6 },
  { name: 'terminal_id', label: 'Rack terminal', type: 'select', width: 6, required: type === 'rack_plus', hidden: () => type !== 'rack_plus', useOptions: () => useTerminalOptions() },
  { name: 'supplier_id', label: 'Rack supplier (empty: lowest)', type: 'select', width: 6, hidden: () => type !== 'rack_plus', useOptions: () => useSupplierOptions() },
  { name: 'freight_per_unit', label: 'Freight ($/unit)', type: 'number', min: 0, step: 0.0001, width: 6, hidden: () => type === 'fixed' },
];

const price = (v: string | null | undefined) => (v === null || v === undefined ? '—' : `$${Number(v).toFixed(4)}`);

export function CustomerPricingSection({ customer }: { customer: Customer }) {
  const [page, setPage] = useState(0);
  const q = useCustomerPricingQuery({ customerId: customer.id, page: page + 1, size: 50 });
  const [add] = useAddCustomerPricingMutation();
  const [update, updating] = useUpdateCustomerPricingMutation();
  const [remove] = useDeleteCustomerPricingMutation();
  const [adding, setAdding] = useState(false);
  const perms = usePermissions('customer_price');
  const data = q.data;
  const type = data?.customer_pricing_type ?? customer.customer_pricing_type;

  const changeType = async (next: string) => {
    try {
      await update({ customerId: customer.id, body: { customer_pricing_type: next as 'standard', pricings: [] } }).unwrap();
      toast.success('Customer pricing type updated successfully');
    } catch (err) {
      toast.error(isApiError(err) ? err.message : 'Failed to update customer pricing type');
    }
  };

  return (
    <Box data-testid="customer-pricing">
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: { xs: 'stretch', sm: 'center' }, flexDirection: { xs: 'column', sm: 'row' }, mb: 1.5 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          Pricing
        </Typography>
        <TextField
          select
          size="small"
          label="Pricing type"
          value={type}
          disabled={!perms.change || updating.isLoading}
          onChange={(e) => void changeType(e.target.value)}
          sx={{ minWidth: 240 }}
          helperText={PRICING_TYPES[type]?.help}
        >
          {Object.entries(PRICING_TYPES).map(([k, v]) => <MenuItem key={k} value={k}>{v.label}</MenuItem>)}
        </TextField>
        {perms.add && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
            Add product price
          </Button>
        )}
      </Box>
      {q.isLoading && <Skeleton variant="rounded" height={120} />}
      {q.error && <Alert severity="error">{isApiError(q.error) ? q.error.message : 'Failed to fetch customer pricing'}</Alert>}
      {data && data.pricings.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {type === 'standard' ? 'Priced by the pricing rules. Add product prices for a contract, rack-plus or cost-plus deal.' : 'No product prices yet: products without one are priced by the rules.'}
        </Typography>
      )}
      {data && data.pricings.length > 0 && (
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Product prices">
            <TableHead>
              <TableRow>
                <TableCell>Product</TableCell>
                <TableCell align="right">Unit price</TableCell>
                <TableCell align="right">Margin</TableCell>
                <TableCell align="right">Final price today</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.pricings.map((p) => (
                <TableRow key={p.id}>
                  <TableCell>{p.product_name}</TableCell>
                  <TableCell align="right">{price(p.unit_price)}</TableCell>
                  <TableCell align="right">{price(p.margin)}</TableCell>
                  <TableCell align="right">
                    {p.final_price !== null ? price(p.final_price) : <Tooltip title={p.final_price_note}><span>no price</span></Tooltip>}
                  </TableCell>
                  <TableCell align="right">
                    {perms.delete && (
                      <IconButton
                        size="small"
                        aria-label={`Delete the price of ${p.product_name}`}
                        onClick={async () => {
                          try {
                            await remove({ customerId: customer.id, id: p.id }).unwrap();
                            toast.success('Pricing item deleted successfully');
                          } catch (err) {
                            toast.error(isApiError(err) ? err.message : 'Failed to delete pricing item');
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
          {data.total > 50 && <TablePagination component="div" count={data.total} page={page} onPageChange={(_, p) => setPage(p)} rowsPerPage={50} rowsPerPageOptions={[50]} />}
        </TableContainer>
      )}
      {adding && (
        <FormDialog<ItemForm>
          open
          mode="create"
          title={`Product price for ${customer.name}`}
          fields={fields(type)}
          initialValues={{ product_id: null, unit_price: null, margin: 0, terminal_id: null, supplier_id: null, freight_per_unit: 0 }}
          onClose={() => setAdding(false)}
          onSubmit={async (v) => {
            await add({
              customerId: customer.id,
              body: { pricings: [{ product_id: v.product_id!, unit_price: v.unit_price, margin: v.margin ?? 0, terminal_id: v.terminal_id, supplier_id: v.supplier_id, freight_per_unit: v.freight_per_unit ?? 0 }] },
            }).unwrap();
            toast.success('Pricing item added successfully');
            setAdding(false);
          }}
        />
      )}
    </Box>
  );
}
