import Check from '@mui/icons-material/Check';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import { JobProgress, QuickbooksTabs } from './parts';
import { SyncStateChip } from '@/components/common/SyncStateChip';
import {
  MSG_MAP,
  SERVICE,
  useQboConnectionQuery,
  useQboItemMapQuery,
  useQboItemsQuery,
  useQboSetItemMapMutation,
  useQboSyncSelectedItemsMutation,
  type ItemMapRow,
  type Job,
  type QboItem,
} from './quickbooksApi';

type Kind = ItemMapRow['kind'];
const KIND_LABEL: Record<Kind, string> = { product: 'Product', fee: 'Fee', tax: 'Tax' };
const keyOf = (r: Pick<ItemMapRow, 'kind' | 'local_id'>) => `${r.kind}:${r.local_id}`;
const errorText = (e: unknown, fallback: string) => (isApiError(e) ? e.message : fallback);

/** The item a row shows: its saved mapping, else the suggestion by name (marked, not yet saved). */
function shownItem(row: ItemMapRow): { id: string; name: string; suggested: boolean } | null {
  if (row.qbo_item_id) return { id: row.qbo_item_id, name: row.qbo_item_name ?? row.qbo_item_id, suggested: false };
  if (row.suggestion) return { ...row.suggestion, suggested: true };
  return null;
}

function ItemSelect({ row, items, onPick, disabled }: { row: ItemMapRow; items: QboItem[]; onPick: (row: ItemMapRow, item: QboItem | null) => void; disabled: boolean }) {
  const shown = shownItem(row);
  const value = shown ? (items.find((i) => i.id === shown.id) ?? { id: shown.id, name: shown.name, type: '', active: true }) : null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <Autocomplete
        size="small"
        options={items}
        value={value}
        disabled={disabled}
        onChange={(_, item) => onPick(row, item)}
        getOptionLabel={(i) => i.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        renderOption={(props, i) => (
          <li {...props} key={i.id}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', width: '100%', gap: 1 }}>
              <span>{i.name}</span>
              <Typography variant="caption" color="text.secondary">
                {i.type}
                {i.active ? '' : ' · inactive'}
              </Typography>
            </Box>
          </li>
        )}
        renderInput={(params) => (
          <TextField {...params} placeholder="Choose an item" slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'aria-label': `QuickBooks item for ${row.local_name}` } }} />
        )}
        sx={{ flex: 1, minWidth: { xs: 0, sm: 220 } }}
      />
      {shown?.suggested && (
        <>
          <Chip size="small" variant="outlined" color="info" label="Suggested" data-testid="suggested" />
          <Tooltip title="Use the suggestion">
            <span>
              <IconButton size="small" aria-label={`Use the suggestion for ${row.local_name}`} disabled={disabled} onClick={() => onPick(row, { id: shown.id, name: shown.name, type: '', active: true })}>
                <Check fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </>
      )}
    </Box>
  );
}

function ItemCell(props: { row: ItemMapRow; items: QboItem[]; onPick: (row: ItemMapRow, item: QboItem | null) => void; disabled: boolean }) {
  return (
    <Box sx={{ mt: { xs: 1, sm: 0 } }}>
      <ItemSelect {...props} />
      {props.row.last_sync_error && (
        <Typography variant="caption" color="error" component="div" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          {props.row.last_sync_error}
        </Typography>
      )}
    </Box>
  );
}

/** "31 products, 2 fees, 1 tax": what there is to map, by kind. */
export function countByKind(rows: Pick<ItemMapRow, 'kind'>[]): string {
  const n = (k: Kind) => rows.filter((r) => r.kind === k).length;
  const word = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [word(n('product'), 'product', 'products'), word(n('fee'), 'fee', 'fees'), word(n('tax'), 'tax', 'taxes')].join(', ');
}

/** /quickbook-online/map-items: each product, fee and tax to a QuickBooks item; bulk sync. */
export default function MapItemsPage() {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const conn = useQboConnectionQuery();
  const connected = conn.data?.state === 'connected';
  const map = useQboItemMapQuery();
  const items = useQboItemsQuery(undefined, { skip: !connected });
  const [setMap] = useQboSetItemMapMutation();
  const [syncSelected, syncState] = useQboSyncSelectedItemsMutation();
  const [kind, setKind] = useState<Kind | 'all'>('all');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [job, setJob] = useState<Job | null>(null);

  const rows = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (map.data ?? []).filter((r) => (kind === 'all' || r.kind === kind) && (!term || r.local_name.toLowerCase().includes(term)));
  }, [map.data, kind, search]);
  const mapped = (map.data ?? []).filter((r) => r.qbo_item_id).length;
  const total = map.data?.length ?? 0;
  const counts = countByKind(map.data ?? []);
  const allShown = rows.length > 0 && rows.every((r) => selected.includes(keyOf(r)));

  const pick = useCallback(
    async (row: ItemMapRow, item: QboItem | null) => {
      try {
        await setMap({ kind: row.kind, local_id: row.local_id, qbo_item_id: item?.id ?? null }).unwrap();
      } catch (e) {
        toast.error(errorText(e, MSG_MAP));
      }
    },
    [setMap],
  );
  const refetchMap = map.refetch;
  const refetchItems = items.refetch;
  const onSynced = useCallback(() => {
    void refetchMap();
    if (connected) void refetchItems();
  }, [refetchMap, refetchItems, connected]);
  const toggle = (k: string) => setSelected((s) => (s.includes(k) ? s.filter((x) => x !== k) : [...s, k]));
  const toggleAll = () => setSelected((s) => (allShown ? s.filter((k) => !rows.some((r) => keyOf(r) === k)) : [...new Set([...s, ...rows.map(keyOf)])]));

  const doSync = async () => {
    const chosen = (map.data ?? []).filter((r) => selected.includes(keyOf(r)));
    try {
      // A suggestion the user keeps is saved first: syncing a row uses its mapping.
      for (const r of chosen) if (!r.qbo_item_id && r.suggestion) await setMap({ kind: r.kind, local_id: r.local_id, qbo_item_id: r.suggestion.id }).unwrap();
      setJob(await syncSelected({ items: chosen.map((r) => ({ kind: r.kind, local_id: r.local_id })) }).unwrap());
      setSelected([]);
    } catch (e) {
      toast.error(errorText(e, 'Failed to start the item sync'));
    }
  };

  return (
    <PageBody>
      <PageHeader title="Map Items" subtitle={`Match each product, fee and tax to the ${SERVICE} item its invoice lines post to.`} />
      <QuickbooksTabs />
      {conn.data && !connected && (
        <Alert severity="warning" sx={{ mb: 2 }} action={<Button component={RouterLink} to="/quickbook-online" color="inherit">{conn.data.state === 'reconnect' ? 'Reconnect' : 'Connect'}</Button>}>
          {conn.data.state === 'reconnect'
            ? `${SERVICE} needs reconnecting: reconnect it to choose its items.`
            : `${SERVICE} is not connected. Connect it to choose the item each product, fee and tax posts to.`}
        </Alert>
      )}
      {items.error && <Alert severity="error" sx={{ mb: 2 }}>{errorText(items.error, `Failed to fetch the ${SERVICE} items`)}</Alert>}
      {job && <JobProgress key={job.job_id} job={job} onFinished={onSynced} />}
      <Card variant="outlined">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', p: { xs: 2, sm: 2.5 }, pb: 1.5 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, mr: 'auto' }} data-testid="map-progress">
            {mapped} of {total} mapped
            {total > 0 && (
              <Typography component="span" variant="body2" color="text.secondary" data-testid="map-counts">
                {' '}· {counts}
              </Typography>
            )}
          </Typography>
          <ToggleButtonGroup size="small" exclusive value={kind} onChange={(_, v: Kind | 'all' | null) => v && setKind(v)} aria-label="Show">
            <ToggleButton value="all">All</ToggleButton>
            <ToggleButton value="product">Products</ToggleButton>
            <ToggleButton value="fee">Fees</ToggleButton>
            <ToggleButton value="tax">Taxes</ToggleButton>
          </ToggleButtonGroup>
          <TextField size="small" label="Search" value={search} onChange={(e) => setSearch(e.target.value)} sx={{ width: { xs: '100%', sm: 220 } }} />
          <Button variant="contained" onClick={doSync} disabled={!connected || selected.length === 0 || syncState.isLoading}>
            Sync selected{selected.length ? ` (${selected.length})` : ''}
          </Button>
        </Box>
        {map.error && <Alert severity="error" sx={{ mx: 2, mb: 2 }}>{errorText(map.error, 'Failed to fetch the item map')}</Alert>}
        {map.isLoading && <Skeleton variant="rounded" height={240} sx={{ mx: 2, mb: 2 }} />}
        {map.data && (
          <TableContainer>
            <Table size="small" aria-label="Item mapping">
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox checked={allShown} onChange={toggleAll} disabled={rows.length === 0} slotProps={{ input: { 'aria-label': 'Select all shown' } }} />
                  </TableCell>
                  <TableCell>FuelDesk</TableCell>
                  {!phone && <TableCell>{SERVICE} item</TableCell>}
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Sync</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4}>
                      <Typography variant="body2" color="text.secondary">
                        {total === 0 ? 'No products, fees or taxes yet.' : 'Nothing matches.'}
                      </Typography>
                    </TableCell>
                  </TableRow>
                )}
                {rows.map((r) => (
                  <TableRow key={keyOf(r)} data-testid={`map-${r.kind}-${r.local_id}`} data-mapped={r.qbo_item_id ? 'yes' : 'no'}>
                    <TableCell padding="checkbox">
                      <Checkbox checked={selected.includes(keyOf(r))} onChange={() => toggle(keyOf(r))} slotProps={{ input: { 'aria-label': `Select ${r.local_name}` } }} />
                    </TableCell>
                    <TableCell sx={{ minWidth: 120, overflowWrap: 'anywhere' }}>
                      <Typography variant="body2" sx={{ fontWeight: 500 }}>
                        {r.local_name}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        {KIND_LABEL[r.kind]}
                      </Typography>
                      <Box sx={{ display: { xs: 'block', md: 'none' }, mt: 0.5 }}>
                        <SyncStateChip state={r.sync_state} />
                      </Box>
                      {/* Phone: the select under the name, full width. */}
                      {phone && <ItemCell row={r} items={items.data ?? []} onPick={pick} disabled={!connected} />}
                    </TableCell>
                    {!phone && (
                      <TableCell sx={{ width: { md: '45%' } }}>
                        <ItemCell row={r} items={items.data ?? []} onPick={pick} disabled={!connected} />
                      </TableCell>
                    )}
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                      <SyncStateChip state={r.sync_state} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Card>
    </PageBody>
  );
}
