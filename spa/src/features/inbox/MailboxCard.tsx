import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { MSG_MAILBOX, MSG_START, useMailboxQuery, useStartAgentMutation, useStopAgentMutation } from './inboxApi';
import { SettingsDialog } from './SettingsDialog';
import { errorText, when } from './format';

export function MailboxCard() {
  const mailbox = useMailboxQuery(undefined, { pollingInterval: 15_000 });
  const [start, starting] = useStartAgentMutation();
  const [stop, stopping] = useStopAgentMutation();
  const [editing, setEditing] = useState(false);
  const m = mailbox.data;
  const run = async (action: typeof start) => {
    try {
      toast.success((await action().unwrap()).message);
    } catch (err) {
      toast.error(errorText(err, MSG_START));
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      {mailbox.isError && <Alert severity="error">{errorText(mailbox.error, MSG_MAILBOX)}</Alert>}
      {m && (
        <Stack spacing={1.5}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
              <Typography variant="subtitle2">Mailbox</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {m.configured ? `${m.username} on ${m.host}:${m.port} (${m.folder})` : 'Not set up yet: enter the IMAP server the suppliers write to.'}
              </Typography>
            </Box>
            {m.configured && <Chip size="small" label={m.enabled ? 'Checking' : 'Stopped'} color={m.enabled ? 'success' : 'default'} />}
            <Button size="small" onClick={() => setEditing(true)}>{m.configured ? 'Settings' : 'Set up mailbox'}</Button>
            {m.configured && (
              <Button size="small" variant="contained" disabled={starting.isLoading} onClick={() => run(start)}>
                {m.enabled ? 'Check now' : 'Start'}
              </Button>
            )}
            {m.enabled && <Button size="small" disabled={stopping.isLoading} onClick={() => run(stop)}>Stop</Button>}
          </Box>
          {m.configured && (
            <Typography variant="caption" color="text.secondary">
              Last checked {when(m.last_polled_at)} · last success {when(m.last_success_at)}
              {m.enabled && m.next_poll_at ? ` · next check ${when(m.next_poll_at)}` : ''}
            </Typography>
          )}
          {m.last_error && (
            <Alert severity="error" data-testid="mailbox-error">
              {m.last_error}
              {m.consecutive_failures > 1 ? ` (${m.consecutive_failures} times in a row; the next try waits longer each time)` : ''}
            </Alert>
          )}
        </Stack>
      )}
      {editing && m && <SettingsDialog mailbox={m} onClose={() => setEditing(false)} />}
    </Paper>
  );
}
