import AddShoppingCart from '@mui/icons-material/AddShoppingCart';
import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useCreateDueOrdersMutation, useDueListQuery, type DueRow } from './forecastApi';
import { isApiError } from '@/lib/api/errors';
import { confidenceColor, DEFAULT_WITHIN, WITHIN_CHOICES, day, gallons, isSelectable, num, ordersBody, outcomes, percent, prune, refusedTank, runoutText, toggle, toggleAll, type Outcome } from './model';
import { useRunForecast } from './RunForecast';

function LevelBar({ row }: { row: DueRow }) {
  const pct = Math.max(0, Math.min(100, num(row.level_percent) ?? 0));
  const color = pct <= 20 ? 'error' : pct <= 35 ? 'warning' : 'primary';
  return (
    <Box sx={{ minWidth: 90 }}>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {percent(row.level_percent)} <Typography component="span" variant="caption" color="text.secondary">· {gallons(row.level_gallons)}</Typography>
      </Typography>
      <LinearProgress variant="determinate" value={pct} color={color} aria-label={`Level now ${percent(row.level_percent)}`} sx={{ height: 6, borderRadius: 3, mt: 0.5 }} />
    </Box>
  );
}

function OrderLink({ row }: { row: DueRow }) {
  return (
    <Link component={RouterLink} to={`/sales-order/${row.open_order_id}`} underline="hover" sx={{ fontSize: 13, whiteSpace: 'nowrap' }}>
      {row.open_order_number ? `Order ${row.open_order_number}` : `Order #${row.open_order_id}`}
    </Link>
  );
}

function Pick({ row, selected, onToggle }: { row: DueRow; selected: boolean; onToggle: () => void }) {
  if (!isSelectable(row)) return <OrderLink row={row} />;
  return <Checkbox checked={selected} onChange={onToggle} slotProps={{ input: { 'aria-label': `Select ${row.asset_name} (${row.customer_name})` } }} />;
}

function TankLink({ row }: { row: DueRow }) {
  return (
    <Link component={RouterLink} to={`/forecast/tank/${row.asset_id}`} underline="hover" sx={{ fontWeight: 600 }}>
      {row.asset_name}
    </Link>
  );
}

function Confidence({ value }: { value: string }) {
  if (!value) return null;
  return <Chip size="small" variant="outlined" color={confidenceColor(value)} label={value[0].toUpperCase() + value.slice(1)} />;
}

/** The refusal of "Create orders", under the tank it names. */
function RowError({ message }: { message: string }) {
  return (
    <Typography variant="caption" color="error" component="div" role="alert" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
      {message}
    </Typography>
  );
}

interface ListProps {
  rows: DueRow[];
  selected: Set<number>;
  setSelected: (s: Set<number>) => void;
  refused: { assetId: number; message: string } | null;
}

function DueTable({ rows, selected, setSelected, refused }: ListProps) {
  const pickable = rows.filter(isSelectable);
  const allPicked = pickable.length > 0 && pickable.every((r) => selected.has(r.asset_id));
  return (
    <TableContainer component={Card} variant="outlined">
      <Table size="small" aria-label="Tanks due">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" sx={{ width: 112 }}>
              <Checkbox
                checked={allPicked}
                indeterminate={!allPicked && selected.size > 0}
                disabled={pickable.length === 0}
                onChange={() => setSelected(toggleAll(selected, rows))}
                slotProps={{ input: { 'aria-label': 'Select every tank without an open order' } }}
              />
            </TableCell>
            <TableCell>Customer / tank</TableCell>
            <TableCell>Product</TableCell>
            <TableCell>Level now</TableCell>
            <TableCell>Reorder</TableCell>
            <TableCell>Run-out</TableCell>
            <TableCell>Suggested</TableCell>
            <TableCell>Confidence</TableCell>
            <TableCell>Reason</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.asset_id} hover selected={selected.has(row.asset_id)} data-testid={`due-row-${row.asset_id}`} sx={refused?.assetId === row.asset_id ? { bgcolor: 'error.50', outline: '1px solid', outlineColor: 'error.light' } : undefined}>
              <TableCell padding="checkbox">
                <Pick row={row} selected={selected.has(row.asset_id)} onToggle={() => setSelected(toggle(selected, row))} />
              </TableCell>
              <TableCell>
                <Typography variant="body2">{row.customer_name}</Typography>
                <TankLink row={row} />
                {refused?.assetId === row.asset_id && <RowError message={refused.message} />}
                {row.ship_to_name && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {row.ship_to_name}
                  </Typography>
                )}
              </TableCell>
              <TableCell>{row.product_name ?? '—'}</TableCell>
              <TableCell>
                <LevelBar row={row} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{day(row.reorder_date)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {row.runout_date ? day(row.runout_date) : 'Not within the horizon'}
                {row.runout_date && (row.runout_early || row.runout_late) && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {day(row.runout_early ?? row.runout_date)} – {day(row.runout_late ?? row.runout_date)}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {day(row.suggested_date)}
                <Typography variant="caption" color="text.secondary" component="div">
                  {gallons(row.suggested_gallons)}
                </Typography>
              </TableCell>
              <TableCell>
                <Confidence value={row.confidence} />
              </TableCell>
              <TableCell sx={{ minWidth: 260, maxWidth: 380 }}>
                <Typography variant="body2" color="text.secondary" sx={{ fontSize: 13 }}>
                  {row.reason}
                </Typography>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function DueCards({ rows, selected, setSelected, refused }: ListProps) {
  return (
    <Stack spacing={1.5} component="ul" sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label="Tanks due">
      {rows.map((row) => (
        <Card component="li" key={row.asset_id} variant="outlined" sx={{ p: 1.5 }} data-testid={`due-row-${row.asset_id}`}>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {row.customer_name}
              </Typography>
              <TankLink row={row} />
              <Typography variant="caption" color="text.secondary" component="div">
                {[row.product_name, row.ship_to_name].filter(Boolean).join(' · ')}
              </Typography>
              {refused?.assetId === row.asset_id && <RowError message={refused.message} />}
            </Box>
            <Pick row={row} selected={selected.has(row.asset_id)} onToggle={() => setSelected(toggle(selected, row))} />
          </Box>
          <Box sx={{ my: 1 }}>
            <LevelBar row={row} />
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 0.5, fontSize: 13 }}>
            <Typography variant="caption" color="text.secondary">Reorder</Typography>
            <Typography variant="caption">{day(row.reorder_date)}</Typography>
            <Typography variant="caption" color="text.secondary">Run-out</Typography>
            <Typography variant="caption">{runoutText(row)}</Typography>
            <Typography variant="caption" color="text.secondary">Suggested</Typography>
            <Typography variant="caption">
              {day(row.suggested_date)} · {gallons(row.suggested_gallons)}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
            <Confidence value={row.confidence} />
            <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
              {row.reason}
            </Typography>
          </Box>
        </Card>
      ))}
    </Stack>
  );
}

/** What "Create orders" did: each created order with its link (and a price the engine could not set). */
function Results({ items, onClose }: { items: Outcome[]; onClose: () => void }) {
  const unpriced = items.filter((o) => o.price_error).length;
  return (
    <Alert severity={unpriced ? 'warning' : 'success'} onClose={onClose} sx={{ mb: 2 }} data-testid="create-results">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {items.length} {items.length === 1 ? 'order' : 'orders'} created as drafts{unpriced ? `, ${unpriced} without a price` : ''}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {items.map((o) => (
          <li key={o.order_id}>
            <Link component={RouterLink} to={`/sales-order/${o.order_id}`}>
              {o.number ? `Order ${o.number}` : `Order #${o.order_id}`}
            </Link>{' '}
            — {o.customer}, {o.tank}: {o.quantity} on {day(o.planned_date)}
            {o.price_error && (
              <Typography component="span" variant="body2" color="warning.dark">
                {' '}
                ({o.price_error})
              </Typography>
            )}
          </li>
        ))}
      </Box>
    </Alert>
  );
}

/** /forecast: keep-full tanks due within N days, by risk; pick rows and create their orders at once. */
export default function DueListPage() {
  const [within, setWithin] = useState<number>(DEFAULT_WITHIN);
  const due = useDueListQuery({ within_days: within });
  const rows = useMemo(() => due.data?.rows ?? [], [due.data]);
  const [refused, setRefused] = useState<{ assetId: number; message: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [picked, setSelected] = useState<Set<number>>(new Set());
  // A row that left the list or now has an open order is no longer picked.
  const selected = useMemo(() => prune(picked, rows), [picked, rows]);
  const [results, setResults] = useState<Outcome[] | null>(null);
  const [create, creating] = useCreateDueOrdersMutation();
  const phone = useMediaQuery('(max-width:900px)');
  const run = useRunForecast();

  const onCreate = async () => {
    const body = ordersBody(rows, selected);
    if (!body.tanks.length) return;
    setRefused(null);
    setFailure(null);
    try {
      const res = await create(body).unwrap();
      setResults(outcomes(res, rows));
      setSelected(new Set());
    } catch (e) {
      // All or nothing: no order was created; the sentence names the tank that stopped them.
      const message = isApiError(e) ? e.message : 'The orders could not be created.';
      const assetId = refusedTank(message, body, rows);
      setFailure(message);
      if (assetId !== null) setRefused({ assetId, message });
      setResults(null);
    }
  };

  const withOrder = rows.filter((r) => !isSelectable(r)).length;
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
        <Typography id="within-label" variant="body2" color="text.secondary">
          Reaching reorder within
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={within} onChange={(_, v: number | null) => v && setWithin(v)} aria-labelledby="within-label">
          {WITHIN_CHOICES.map((n) => (
            <ToggleButton key={n} value={n}>
              {n} days
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Box sx={{ flex: 1 }} />
        <Button startIcon={<Refresh />} onClick={() => due.refetch()} disabled={due.isFetching}>
          Refresh
        </Button>
        {run.button}
        <Button variant="contained" startIcon={<AddShoppingCart />} disabled={selected.size === 0 || creating.isLoading} onClick={onCreate}>
          {creating.isLoading ? 'Creating…' : selected.size ? `Create ${selected.size} ${selected.size === 1 ? 'order' : 'orders'}` : 'Create orders'}
        </Button>
      </Box>
      {run.progress}
      {results && <Results items={results} onClose={() => setResults(null)} />}
      {failure && (
        <Alert severity="error" onClose={() => { setFailure(null); setRefused(null); }} sx={{ mb: 2 }} data-testid="create-failure">
          No order was created: {failure}
          {refused ? ' Untick that tank (or fix it) and create the others again.' : ''}
        </Alert>
      )}
      {due.isLoading ? (
        <Box data-testid="due-loading">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} variant="rounded" height={52} sx={{ mb: 1 }} />
          ))}
        </Box>
      ) : due.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => due.refetch()}>
              Try again
            </Button>
          }
        >
          {(due.error as { message?: string })?.message || 'Failed to fetch the due list'}
        </Alert>
      ) : rows.length === 0 ? (
        <Card variant="outlined" sx={{ p: 4, textAlign: 'center' }} data-testid="due-empty">
          <Typography variant="h6" component="p">
            No tank reaches its reorder point within {within} days
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Keep-full tanks appear here as they run down. Set a tank&apos;s program to keep-full from its forecast page, import readings, or run the forecast now.
          </Typography>
        </Card>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {rows.length} {rows.length === 1 ? 'tank' : 'tanks'} due, most at risk first{withOrder ? ` · ${withOrder} already ordered` : ''}
            {due.data?.as_of ? ` · forecast of ${new Date(due.data.as_of).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })}` : ''}
          </Typography>
          {phone ? <DueCards rows={rows} selected={selected} setSelected={setSelected} refused={refused} /> : <DueTable rows={rows} selected={selected} setSelected={setSelected} refused={refused} />}
        </>
      )}
    </Box>
  );
}
