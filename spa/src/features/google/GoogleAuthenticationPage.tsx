import GoogleIcon from '@mui/icons-material/Google';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import {
  MSG_CONNECT,
  MSG_DISCONNECT,
  MSG_STATUS,
  callbackParams,
  useGoogleAuthenticationQuery,
  useGoogleCallbackMutation,
  useGoogleConnectMutation,
  useGoogleDisconnectMutation,
  type GoogleAuthentication,
} from './googleApi';

const STATE_LABEL: Record<GoogleAuthentication['state'], { label: string; color: 'success' | 'warning' | 'default' }> = {
  connected: { label: 'Connected', color: 'success' },
  reconnect: { label: 'Reconnect needed', color: 'warning' },
  disconnected: { label: 'Not connected', color: 'default' },
};

const message = (error: unknown, fallback: string) => (isApiError(error) ? error.message : fallback);

/** Google sent the browser back here with ?code&state: post them once, then clean the address. */
function useCallbackFromGoogle() {
  const location = useLocation();
  const navigate = useNavigate();
  const [complete, completing] = useGoogleCallbackMutation();
  const handled = useRef<string | null>(null);
  const params = callbackParams(location.search);
  useEffect(() => {
    if (!params || handled.current === location.search) return;
    handled.current = location.search;
    const done = () => {
      void navigate('/google-authentication', { replace: true });
    };
    if ('error' in params) {
      toast.error(params.error);
      done();
      return;
    }
    void complete(params)
      .unwrap()
      .then((res) => toast.success(res.message || 'Google account connected'))
      .catch((e: unknown) => toast.error(message(e, MSG_CONNECT)))
      .finally(done);
  }, [params, location.search, complete, navigate]);
  return completing.isLoading || (params !== null && !('error' in params));
}

function ConnectionCard({ g }: { g: GoogleAuthentication }) {
  const [connect, connecting] = useGoogleConnectMutation();
  const [disconnect, disconnecting] = useGoogleDisconnectMutation();
  const [confirm, setConfirm] = useState(false);
  const state = STATE_LABEL[g.state];

  const onConnect = async () => {
    try {
      const { authorization_url } = await connect().unwrap();
      window.location.assign(authorization_url);
    } catch (e) {
      toast.error(message(e, MSG_CONNECT));
    }
  };
  const onDisconnect = async () => {
    try {
      const res = await disconnect().unwrap();
      toast.success(res.message || 'Google account disconnected');
      setConfirm(false);
    } catch (e) {
      toast.error(message(e, MSG_DISCONNECT));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }} data-testid="google-connection">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <GoogleIcon color="action" />
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 0 }}>
          Gmail sending
        </Typography>
        <Chip label={state.label} color={state.color} size="small" data-testid="google-state" />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {g.state === 'disconnected'
          ? "Invoice and delivery-ticket emails go out through the server's mail (SMTP). Connect a Google Workspace or Gmail account to send them from it through Gmail."
          : g.state === 'reconnect'
            ? 'Google no longer accepts FuelDesk for this account (access removed, expired, or its password changed): emails are held, not sent, until you reconnect it.'
            : 'Invoice and delivery-ticket emails go out from this Google account through Gmail.'}
      </Typography>

      {g.state !== 'disconnected' && (
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, columnGap: 2, rowGap: 0.5, m: 0, mb: 2 }}>
          <Typography component="dt" variant="body2" color="text.secondary">Account</Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="google-email">
            {g.email}
          </Typography>
          <Typography component="dt" variant="body2" color="text.secondary">Connected</Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {g.connected_at ? dayjs(g.connected_at).format('MMM D, YYYY HH:mm') : '—'}
            {g.connected_by ? ` by ${g.connected_by}` : ''}
          </Typography>
        </Box>
      )}

      {g.state === 'reconnect' && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="google-reason">
          {g.last_error || 'Google refused the connection: reconnect the account.'}
        </Alert>
      )}

      {g.held > 0 && (
        <Alert severity={g.state === 'connected' ? 'info' : 'warning'} sx={{ mb: 2 }} data-testid="google-held">
          {g.held === 1 ? '1 email is' : `${g.held} emails are`} held until the account is reconnected.{' '}
          <Link component={RouterLink} to="/email">See the email history</Link>
        </Alert>
      )}

      {!g.configured && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Google is not configured on this server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.
        </Alert>
      )}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        {g.state !== 'connected' && (
          <Button variant="contained" startIcon={<GoogleIcon />} onClick={onConnect} disabled={!g.configured || connecting.isLoading}>
            {g.state === 'reconnect' ? 'Reconnect' : 'Connect Google account'}
          </Button>
        )}
        {g.state !== 'disconnected' && (
          <Button variant="outlined" color="error" onClick={() => setConfirm(true)}>
            Disconnect
          </Button>
        )}
        <Button component={RouterLink} to="/email" variant="text">
          Email history
        </Button>
      </Stack>

      <Dialog open={confirm} onClose={() => setConfirm(false)} aria-labelledby="google-disconnect-title">
        <DialogTitle id="google-disconnect-title">Disconnect {g.email}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            FuelDesk's access is revoked at Google. Emails then go out through the server's mail (SMTP), held ones included.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={onDisconnect} disabled={disconnecting.isLoading}>
            Disconnect
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

export default function GoogleAuthenticationPage() {
  const completing = useCallbackFromGoogle();
  const status = useGoogleAuthenticationQuery(undefined, { skip: completing });
  return (
    <PageBody>
      <PageHeader title="Google Authentication" subtitle="The mail provider of this company: send invoice and ticket emails through a Google account." />
      {(completing || status.isLoading) && (
        <Box sx={{ p: 4, textAlign: 'center' }}>
          <CircularProgress aria-label={completing ? 'Connecting the Google account' : 'Loading'} />
        </Box>
      )}
      {!completing && status.isError && <Alert severity="error">{message(status.error, MSG_STATUS)}</Alert>}
      {!completing && status.data && <ConnectionCard g={status.data} />}
    </PageBody>
  );
}
