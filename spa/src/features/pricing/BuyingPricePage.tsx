import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { ResourceListPage, ToolbarSelect, type ColumnDef, type FieldDef } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { usePermissions, useProductLookupQuery, useSupplierOptions, useTerminalLookupQuery, useTerminalOptions, useProductOptions } from '@/lib/api/lookups';
import {
  buyingPricesApi,
  today,
  unitPrice,
  useRackBoardQuery,
  useRackHistoryQuery,
  useSaveRackSheetMutation,
  type BuyingPrice,
  type BuyingPriceBody,
} from './pricingApi';

const dayBefore = (d: string) => {
  const x = new Date(`${d}T12:00:00`);
  x.setDate(x.getDate() - 1);
  return x.toLocaleDateString('en-CA');
};

function Change({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return <Typography variant="caption" color="text.secondary">new</Typography>;
  const n = Number(value);
  if (n === 0) return <Typography variant="caption" color="text.secondary">±0</Typography>;
  const Icon = n > 0 ? ArrowUpward : ArrowDownward;
  return (
    <Typography variant="caption" sx={{ color: n > 0 ? 'error.main' : 'success.main', display: 'inline-flex', alignItems: 'center' }}>
      <Icon sx={{ fontSize: 12 }} />
      {Math.abs(n).toFixed(4)}
    </Typography>
  );
}

function History({ terminalId, productId, title }: { terminalId: number; productId: number; title: string }) {
  const q = useRackHistoryQuery({ terminal_id: terminalId, product_id: productId, days: 30 });
  const series = useMemo(() => {
    const points = q.data?.points ?? [];
    const dates = [...new Set(points.map((p) => p.date))].sort();
    const suppliers = [...new Map(points.map((p) => [p.supplier_id, p.supplier_name])).entries()];
    return {
      dates,
      lines: suppliers.map(([id, name]) => ({
        id: String(id),
        label: name,
        data: dates.map((d) => {
          const p = points.find((x) => x.supplier_id === id && x.date === d);
          return p ? Number(p.price) : null;
        }),
        showMark: false,
        connectNulls: false,
      })),
    };
  }, [q.data]);
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} data-testid="rack-history">
      <Typography variant="h6" component="h2">History: {title}</Typography>
      {q.isLoading && <Skeleton variant="rounded" height={260} />}
      {q.error && <Alert severity="error">{isApiError(q.error) ? q.error.message : 'Failed to fetch buying prices'}</Alert>}
      {q.data && series.dates.length === 0 && <Typography color="text.secondary">No prices in the last 30 days.</Typography>}
      {q.data && series.dates.length > 0 && (
        <LineChart
          height={280}
          xAxis={[{ scaleType: 'point', data: series.dates.map((d) => d.slice(5)) }]}
          yAxis={[{ valueFormatter: (v: number | null) => (v === null ? '' : v.toFixed(3)) }]}
          series={series.lines}
          margin={{ left: 10, right: 10 }}
        />
      )}
    </Paper>
  );
}

function Board() {
  const suppliers = useSupplierOptions();
  const [date, setDate] = useState(today());
  const [supplierId, setSupplierId] = useState<number | null>(null);
  const [basis, setBasis] = useState<'lowest' | 'average'>('lowest');
  const [picked, setPicked] = useState<{ t: number; p: number; title: string } | null>(null);
  const q = useRackBoardQuery({ date, supplier_id: supplierId ?? undefined, basis });
  const board = q.data;
  const cell = (t: number, p: number) => board?.cells.find((c) => c.terminal_id === t && c.product_id === p);
  return (
    <>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
        <TextField size="small" label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value || today())} slotProps={{ inputLabel: { shrink: true } }} />
        <ToolbarSelect label="Supplier" value={supplierId} options={suppliers.options} onChange={(v) => setSupplierId(v as number | null)} allLabel="All suppliers" loading={suppliers.loading} />
        {!supplierId && (
          <ToolbarSelect label="Across suppliers" value={basis} options={[{ value: 'lowest', label: 'Lowest' }, { value: 'average', label: 'Average' }]} onChange={(v) => setBasis((v as 'lowest' | 'average') ?? 'lowest')} allLabel="Lowest" />
        )}
      </Box>
      {q.isLoading && <Skeleton variant="rounded" height={240} />}
      {q.error && <Alert severity="error">{isApiError(q.error) ? q.error.message : 'Failed to fetch buying prices'}</Alert>}
      {board && board.cells.length === 0 && <Alert severity="info">No rack prices in force on {date}. Enter a rack sheet or import a CSV.</Alert>}
      {board && board.cells.length > 0 && (
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label={`Rack prices on ${date}`} data-testid="rack-board">
            <TableHead>
              <TableRow>
                <TableCell sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1 }}>Terminal</TableCell>
                {board.products.map((p) => <TableCell key={p.id} align="right" sx={{ whiteSpace: 'nowrap' }}>{p.name}</TableCell>)}
              </TableRow>
            </TableHead>
            <TableBody>
              {board.terminals.map((t) => (
                <TableRow key={t.id}>
                  <TableCell component="th" scope="row" sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', whiteSpace: 'nowrap' }}>{t.name}</TableCell>
                  {board.products.map((p) => {
                    const c = cell(t.id, p.id);
                    return (
                      <TableCell key={p.id} align="right" sx={{ cursor: c ? 'pointer' : undefined }} onClick={() => c && setPicked({ t: t.id, p: p.id, title: `${p.name} at ${t.name}` })}>
                        {c?.price ? (
                          <>
                            <div>{unitPrice(c.price)}</div>
                            <Change value={c.change} />
                          </>
                        ) : '—'}
                      </TableCell>
                    );
                  })}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {board && board.cells.length > 0 && !picked && <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>Change from {board.previous_date}. Click a price to see its history.</Typography>}
      {picked && <History terminalId={picked.t} productId={picked.p} title={picked.title} />}
    </>
  );
}

function Sheet() {
  const suppliers = useSupplierOptions();
  const terminalsQ = useTerminalLookupQuery();
  const productsQ = useProductLookupQuery();
  const [supplierId, setSupplierId] = useState<number | null>(null);
  const [date, setDate] = useState(today());
  const [values, setValues] = useState<Record<string, string>>({});
  const [save, saving] = useSaveRackSheetMutation();
  const [error, setError] = useState<string | null>(null);
  const prev = useRackBoardQuery({ date: dayBefore(date), supplier_id: supplierId ?? undefined }, { skip: !supplierId });
  const terminals = (terminalsQ.data ?? []).filter((t) => t.is_active && (!supplierId || t.suppliers.some((s) => s.id === supplierId)));
  const products = (productsQ.data ?? []).filter((p) => p.is_active && p.is_fuel);
  const key = (t: number, p: number) => `${t}:${p}`;
  const previous = (t: number, p: number) => prev.data?.cells.find((c) => c.terminal_id === t && c.product_id === p)?.price;
  const filled = Object.values(values).filter((v) => v.trim() !== '').length;
  const bad = Object.entries(values).filter(([, v]) => v.trim() !== '' && !(Number(v) >= 0 && /^\d*(\.\d{0,6})?$/.test(v.trim())));

  const submit = async () => {
    setError(null);
    const rows = Object.entries(values).filter(([, v]) => v.trim() !== '').map(([k, v]) => {
      const [t, p] = k.split(':').map(Number);
      return { terminal_id: t, product_id: p, price: v.trim() };
    });
    try {
      const res = await save({ supplier_id: supplierId!, effective_from: date, rows }).unwrap();
      toast.success(res.message || 'Buying price saved successfully!');
      setValues({});
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Failed to save buying price');
    }
  };

  return (
    <>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2, alignItems: 'center' }}>
        <ToolbarSelect label="Supplier" value={supplierId} options={suppliers.options} onChange={(v) => { setSupplierId(v as number | null); setValues({}); }} allLabel="Choose a supplier" loading={suppliers.loading} />
        <TextField size="small" label="Effective from" type="date" value={date} onChange={(e) => { setDate(e.target.value || today()); setValues({}); }} slotProps={{ inputLabel: { shrink: true } }} />
        <Button variant="contained" disabled={!supplierId || filled === 0 || bad.length > 0 || saving.isLoading} onClick={() => void submit()}>
          Save {filled || ''} price{filled === 1 ? '' : 's'}
        </Button>
        {saving.isLoading && <CircularProgress size={22} aria-label="Saving" />}
      </Box>
      {!supplierId && <Alert severity="info">Choose the supplier whose rack sheet you are entering: its terminals and our fuels form the grid.</Alert>}
      {bad.length > 0 && <Alert severity="warning" sx={{ mb: 1 }}>Prices are numbers with up to 6 decimals.</Alert>}
      {error && <Alert severity="error" sx={{ mb: 1 }}>{error}</Alert>}
      {supplierId && terminals.length === 0 && <Alert severity="info">This supplier loads at no terminal yet (Suppliers → terminals).</Alert>}
      {supplierId && terminals.length > 0 && (
        <TableContainer component={Paper} variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Rack sheet" data-testid="rack-sheet">
            <TableHead>
              <TableRow>
                <TableCell sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1 }}>Terminal</TableCell>
                {products.map((p) => <TableCell key={p.id} sx={{ whiteSpace: 'nowrap', minWidth: 120 }}>{p.name}</TableCell>)}
              </TableRow>
            </TableHead>
            <TableBody>
              {terminals.map((t) => (
                <TableRow key={t.id}>
                  <TableCell component="th" scope="row" sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', whiteSpace: 'nowrap', zIndex: 1 }}>{t.name}</TableCell>
                  {products.map((p) => {
                    const before = previous(t.id, p.id);
                    return (
                      <TableCell key={p.id}>
                        <TextField
                          size="small"
                          value={values[key(t.id, p.id)] ?? ''}
                          onChange={(e) => setValues((v) => ({ ...v, [key(t.id, p.id)]: e.target.value }))}
                          placeholder={before ? unitPrice(before) : ''}
                          slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': `${p.name} at ${t.name}` } }}
                          helperText={before ? `was ${unitPrice(before)}` : ' '}
                          sx={{ width: 110 }}
                        />
                      </TableCell>
                    );
                  })}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}

interface PriceForm {
  supplier_id: number | null;
  terminal_id: number | null;
  product_id: number | null;
  price: number | null;
  effective_from: string | null;
  effective_to: string | null;
}

const columns: ColumnDef<BuyingPrice>[] = [
  { field: 'effective_from', headerName: 'From', sortField: 'effective_from', width: 110 },
  { field: 'effective_to', headerName: 'To', width: 110, hideOnPhone: true, value: (b) => b.effective_to ?? 'open' },
  { field: 'supplier', headerName: 'Supplier', sortField: 'supplier', minWidth: 160, value: (b) => b.supplier.name },
  { field: 'terminal', headerName: 'Terminal', sortField: 'terminal', minWidth: 140, hideOnPhone: true, value: (b) => b.terminal.name },
  { field: 'product', headerName: 'Product', sortField: 'product', minWidth: 140, value: (b) => b.product.name },
  { field: 'price', headerName: 'Price', sortField: 'price', width: 110, align: 'right', value: (b) => Number(b.price).toFixed(4) },
];

const fields: FieldDef<PriceForm>[] = [
  { name: 'supplier_id', label: 'Supplier', type: 'select', required: true, width: 6, useOptions: () => useSupplierOptions() },
  { name: 'terminal_id', label: 'Terminal', type: 'select', required: true, width: 6, useOptions: () => useTerminalOptions() },
  { name: 'product_id', label: 'Product', type: 'select', required: true, width: 6, useOptions: () => useProductOptions() },
  { name: 'price', label: 'Price per unit ($)', type: 'number', required: true, min: 0, step: 0.000001, width: 6 },
  { name: 'effective_from', label: 'From', type: 'date', required: true, width: 6 },
  { name: 'effective_to', label: 'To (empty: until the next price)', type: 'date', width: 6 },
];

const toBody = (v: PriceForm): BuyingPriceBody => ({
  supplier_id: v.supplier_id!, terminal_id: v.terminal_id!, product_id: v.product_id!, price: v.price ?? 0, effective_from: v.effective_from!, effective_to: v.effective_to,
});

function AllPrices() {
  return (
    <ResourceListPage<BuyingPrice, PriceForm, BuyingPriceBody, BuyingPriceBody>
      title="All buying prices"
      singular="Buying price"
      plural="buying prices"
      resource={buyingPricesApi}
      permission="buying_price"
      embedded
      columns={columns}
      describe={(b) => `${b.product.name} at ${b.terminal.name} from ${b.effective_from}`}
      defaultPageSize={100}
      defaultSort={{ field: 'effective_from', order: 'desc' }}
      filters={[
        { field: 'price', label: 'Price', type: 'number' },
        { field: 'effective_from', label: 'From', type: 'date' },
      ]}
      form={{
        fields,
        emptyValues: { supplier_id: null, terminal_id: null, product_id: null, price: null, effective_from: today(), effective_to: null },
        toValues: (b) => ({ supplier_id: b.supplier_id, terminal_id: b.terminal_id, product_id: b.product_id, price: Number(b.price), effective_from: b.effective_from, effective_to: b.effective_to }),
        toCreateBody: toBody,
        toUpdateBody: toBody,
      }}
      canEdit={() => false}
      importHelp="Columns: supplier (name or code), terminal (code or name), product (code or name), price, effective_from (YYYY-MM-DD), effective_to (optional)."
      exportFilename="buying-prices"
    />
  );
}

export default function BuyingPricePage() {
  const [tab, setTab] = useState(0);
  const perms = usePermissions('buying_price');
  return (
    <PageBody>
      <PageHeader title="Supplier Buying Prices" subtitle="The rack: what each supplier charges at each terminal, by day." />
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 2 }}>
        <Tab label="Today's rack" />
        {perms.add && <Tab label="Enter rack sheet" />}
        <Tab label="All prices" value={2} />
      </Tabs>
      {tab === 0 && <Board />}
      {tab === 1 && perms.add && <Sheet />}
      {tab === 2 && <AllPrices />}
    </PageBody>
  );
}
