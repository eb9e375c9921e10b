import Link from '@mui/icons-material/Link';
import LinkOff from '@mui/icons-material/LinkOff';
import Sync from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { WARNING_SX } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { JobProgress, PendingTile, QuickbooksTabs } from './parts';
import { SyncStateChip } from '@/components/common/SyncStateChip';
import { TaxCodesCard } from './TaxCodesCard';
import {
  MSG_CONNECT,
  SERVICE,
  useQboCallbackMutation,
  useQboConnectMutation,
  useQboConnectionQuery,
  useQboCustomersQuery,
  useQboDisconnectMutation,
  useQboImportCustomersMutation,
  useQboSyncCustomersMutation,
  useQboSyncPaymentsMutation,
  type Connection,
  type Job,
  type JobLogEntry,
} from './quickbooksApi';

const PAGE_SIZE = 20;
const at = (value: string | null | undefined) => (value ? dayjs(value).format('MMM D, YYYY HH:mm') : '—');
const errorText = (e: unknown, fallback: string) => (isApiError(e) ? e.message : fallback);

const STATE_CHIP: Record<Connection['state'], { label: string; sx?: object; color?: 'success' | 'default' }> = {
  connected: { label: 'Connected', color: 'success' },
  disconnected: { label: 'Not connected', color: 'default' },
  reconnect: { label: 'Reconnect needed', sx: WARNING_SX },
};

/** The OAuth callback's query (Intuit sends code, state and realmId; or error on a refusal). */
function useCallbackParams() {
  const { search } = useLocation();
  const q = new URLSearchParams(search);
  const code = q.get('code');
  const state = q.get('state');
  const realmId = q.get('realmId');
  const error = q.get('error');
  return { code, state, realmId, error, present: !!(code || state || error) };
}

/** /quickbook/login: posts the callback once, then shows the connection (or why it was refused). */
function useCallbackLanding(onDone: () => void) {
  const params = useCallbackParams();
  const navigate = useNavigate();
  const [callback, callbackState] = useQboCallbackMutation();
  const [refused, setRefused] = useState<string | null>(null);
  const posted = useRef(false);
  // Intuit's refusal (error=access_denied) or a query without its three parts: nothing to post.
  const incomplete = !params.present
    ? null
    : params.error === 'access_denied'
      ? 'The connection was cancelled in QuickBooks Online.'
      : params.error || !params.code || !params.state || !params.realmId
        ? `${MSG_CONNECT}: the answer of QuickBooks Online was incomplete.`
        : null;
  useEffect(() => {
    if (!params.present || incomplete || posted.current || !params.code || !params.state || !params.realmId) return;
    posted.current = true;
    callback({ code: params.code, state: params.state, realmId: params.realmId })
      .unwrap()
      .then(() => {
        toast.success(`Connected to ${SERVICE}`);
        onDone();
        navigate('/quickbook-online', { replace: true });
      })
      .catch((e: unknown) => setRefused(errorText(e, MSG_CONNECT)));
  }, [params.present, incomplete, params.code, params.state, params.realmId, callback, navigate, onDone]);
  return { busy: callbackState.isLoading, refused: incomplete ?? refused };
}

function ConnectionCard({ conn, onJob }: { conn: Connection; onJob: (job: Job) => void }) {
  const [connect, connectState] = useQboConnectMutation();
  const [disconnect, disconnectState] = useQboDisconnectMutation();
  const [syncPayments, paymentsState] = useQboSyncPaymentsMutation();
  const [confirm, setConfirm] = useState(false);
  const chip = STATE_CHIP[conn.state];

  const doConnect = async () => {
    try {
      const { authorization_url } = await connect().unwrap();
      window.location.assign(authorization_url);
    } catch (e) {
      toast.error(errorText(e, MSG_CONNECT));
    }
  };
  const doDisconnect = async () => {
    try {
      await disconnect().unwrap();
      setConfirm(false);
      toast.success(`Disconnected from ${SERVICE}`);
    } catch (e) {
      toast.error(errorText(e, 'Failed to disconnect'));
    }
  };
  const doPayments = async () => {
    try {
      onJob(await syncPayments().unwrap());
    } catch (e) {
      toast.error(errorText(e, 'Failed to start the payment sync'));
    }
  };

  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="qbo-connection" data-state={conn.state}>
      <CardContent sx={{ p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1.5 }}>
          <Typography component="h2" variant="h6" sx={{ fontWeight: 700, mr: 1 }}>
            {conn.company_name || SERVICE}
          </Typography>
          <Chip size="small" variant="outlined" label={chip.label} color={chip.color} sx={chip.sx} data-testid="qbo-state" />
        </Box>
        {conn.state === 'reconnect' && (
          <Alert severity="warning" sx={{ mb: 1.5 }}>
            The connection to {SERVICE} was revoked or has expired. Reconnect to resume syncing: nothing waiting to sync is lost.
            {conn.last_error && (
              <Box component="span" sx={{ display: 'block', mt: 0.5 }} data-testid="qbo-last-error">
                Last error: {conn.last_error}
              </Box>
            )}
          </Alert>
        )}
        {conn.state === 'disconnected' ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            Connect your {SERVICE} company to send customers, items and invoices to your books and bring payments back.
          </Typography>
        ) : (
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, auto)' }, columnGap: 3, rowGap: 1, m: 0, mb: 1.5 }}>
            {[
              ['Company ID', conn.realm_id || '—'],
              ['Connected', at(conn.connected_at)],
              ['Last sync', at(conn.last_sync_at)],
            ].map(([label, value]) => (
              <Box key={label}>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {label}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
        {conn.state === 'connected' && conn.last_error && (
          <Alert severity="error" sx={{ mb: 1.5 }} data-testid="qbo-last-error">
            Last error: {conn.last_error}
          </Alert>
        )}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {conn.state !== 'connected' && (
            <Button variant="contained" startIcon={<Link />} onClick={doConnect} disabled={connectState.isLoading}>
              {conn.state === 'reconnect' ? 'Reconnect' : `Connect to ${SERVICE}`}
            </Button>
          )}
          {conn.state === 'connected' && (
            <Button variant="outlined" startIcon={<Sync />} onClick={doPayments} disabled={paymentsState.isLoading}>
              Sync payments
            </Button>
          )}
          {conn.state !== 'disconnected' && (
            <Button variant="outlined" color="error" startIcon={<LinkOff />} onClick={() => setConfirm(true)}>
              Disconnect
            </Button>
          )}
        </Box>
      </CardContent>
      <Dialog open={confirm} onClose={() => setConfirm(false)} aria-labelledby="qbo-disconnect-title">
        <DialogTitle id="qbo-disconnect-title">Disconnect {SERVICE}?</DialogTitle>
        <DialogContent>
          <Typography variant="body2">
            FuelDesk stops syncing and revokes its access to your {SERVICE} company. The links between your records and {SERVICE} are kept, so reconnecting the same company picks up where it stopped.
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>Cancel</Button>
          <Button variant="contained" color="error" onClick={doDisconnect} disabled={disconnectState.isLoading}>
            Disconnect
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}

function CustomersPanel({ connected, onJob }: { connected: boolean; onJob: (job: Job) => void }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  useEffect(() => {
    const t = setTimeout(() => {
      setTerm(search.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(t);
  }, [search]);
  const list = useQboCustomersQuery({ page, size: PAGE_SIZE, ...(term ? { search: term } : {}) });
  const [sync, syncState] = useQboSyncCustomersMutation();
  const [importAll, importState] = useQboImportCustomersMutation();
  const rows = list.data?.items ?? [];
  const allOnPage = rows.length > 0 && rows.every((r) => selected.includes(r.id));

  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const toggleAll = () => setSelected((s) => (allOnPage ? s.filter((id) => !rows.some((r) => r.id === id)) : [...new Set([...s, ...rows.map((r) => r.id)])]));
  const doSync = async (ids: number[] | null) => {
    try {
      onJob(await sync({ customer_ids: ids }).unwrap());
      setSelected([]);
    } catch (e) {
      toast.error(errorText(e, 'Failed to start the customer sync'));
    }
  };
  const doImport = async () => {
    try {
      onJob(await importAll().unwrap());
    } catch (e) {
      toast.error(errorText(e, 'Failed to start the import'));
    }
  };

  return (
    <Card variant="outlined">
      <CardContent sx={{ p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
          <Typography component="h2" variant="h6" sx={{ fontWeight: 700, mr: 'auto' }}>
            Customers
          </Typography>
          <Button variant="contained" size="small" onClick={() => doSync(selected)} disabled={!connected || selected.length === 0 || syncState.isLoading}>
            Sync selected{selected.length ? ` (${selected.length})` : ''}
          </Button>
          <Button variant="outlined" size="small" onClick={() => doSync(null)} disabled={!connected || syncState.isLoading}>
            Sync all
          </Button>
          <Button variant="outlined" size="small" onClick={doImport} disabled={!connected || importState.isLoading}>
            Import from QuickBooks
          </Button>
        </Box>
        <TextField size="small" label="Search customers" value={search} onChange={(e) => setSearch(e.target.value)} sx={{ mb: 1.5, width: { xs: '100%', sm: 320 } }} />
        {list.error && <Alert severity="error">{errorText(list.error, 'Failed to fetch the customers')}</Alert>}
        {list.isLoading && <Skeleton variant="rounded" height={200} />}
        {list.data && (
          <TableContainer>
            <Table size="small" aria-label="Customers and their QuickBooks sync">
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox checked={allOnPage} onChange={toggleAll} slotProps={{ input: { 'aria-label': 'Select all customers on this page' } }} disabled={rows.length === 0} />
                  </TableCell>
                  <TableCell>Customer</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>QuickBooks ID</TableCell>
                  <TableCell>Sync</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4}>
                      <Typography variant="body2" color="text.secondary">
                        {term ? 'No customer matches the search.' : 'No customers yet.'}
                      </Typography>
                    </TableCell>
                  </TableRow>
                )}
                {rows.map((r) => (
                  <TableRow key={r.id} hover data-testid={`qbo-customer-${r.id}`}>
                    <TableCell padding="checkbox">
                      <Checkbox checked={selected.includes(r.id)} onChange={() => toggle(r.id)} slotProps={{ input: { 'aria-label': `Select ${r.name}` } }} />
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      {r.name}
                      {r.last_sync_error && (
                        <Typography variant="caption" color="error" component="div" sx={{ overflowWrap: 'anywhere' }}>
                          {r.last_sync_error}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{r.external_id || '—'}</TableCell>
                    <TableCell>
                      <SyncStateChip state={r.sync_state} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {list.data && list.data.pages > 1 && (
          <Pagination sx={{ mt: 1.5 }} count={list.data.pages} page={page} onChange={(_, p) => setPage(p)} size="small" />
        )}
      </CardContent>
    </Card>
  );
}

/** /quickbook-online and /quickbook/login: the connection, what waits to sync, the customers. */
export default function ConnectionPage() {
  const conn = useQboConnectionQuery(undefined, { refetchOnFocus: true });
  const [jobs, setJobs] = useState<Job[]>([]);
  const refetch = conn.refetch;
  const landing = useCallbackLanding(useCallback(() => void refetch(), [refetch]));
  const onJob = useCallback((job: Job) => setJobs((js) => [job, ...js.filter((j) => j.kind !== job.kind)].slice(0, 3)), []);
  const onFinished = useCallback(
    (entry: JobLogEntry) => {
      void refetch();
      if (entry.status === 'succeeded') toast.success(`${entry.message}: done`);
    },
    [refetch],
  );
  const c = conn.data;

  return (
    <PageBody>
      <PageHeader title={SERVICE} subtitle="Connect your books, send customers, items and invoices, and bring payments back." />
      <QuickbooksTabs />
      {landing.busy && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Finishing the connection…
        </Alert>
      )}
      {landing.refused && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="qbo-callback-error">
          {landing.refused}
        </Alert>
      )}
      {conn.error && !c && <Alert severity="error">{errorText(conn.error, 'Failed to fetch the connection')}</Alert>}
      {conn.isLoading && <Skeleton variant="rounded" height={160} sx={{ mb: 2 }} />}
      {c && (
        <>
          <ConnectionCard conn={c} onJob={onJob} />
          {c.state === 'connected' && c.tax_mode === 'codes' && <TaxCodesCard key={`${c.sales_tax_code}/${c.exempt_tax_code}`} conn={c} />}
          <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }} aria-label="Waiting to sync">
            <PendingTile label="Customers waiting to sync" count={c.pending.customers} testId="qbo-pending-customers" />
            <PendingTile label="Items waiting to sync" count={c.pending.items} testId="qbo-pending-items" />
            <PendingTile label="Invoices waiting to sync" count={c.pending.invoices} testId="qbo-pending-invoices" />
          </Box>
          {jobs.map((job) => (
            <JobProgress key={job.job_id} job={job} onFinished={onFinished} />
          ))}
          <CustomersPanel connected={c.state === 'connected'} onJob={onJob} />
        </>
      )}
    </PageBody>
  );
}
