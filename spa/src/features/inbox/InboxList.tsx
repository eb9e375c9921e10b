import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { MSG_LIST, useInboxListQuery } from './inboxApi';
import { ClassChip } from './ClassChip';
import { MailboxCard } from './MailboxCard';
import { errorText, when } from './format';

type Show = 'queue' | 'all';

export function InboxList() {
  const [show, setShow] = useState<Show>('queue');
  const list = useInboxListQuery({ sort_by: 'received_timestamp', order: 'desc', include_verified: show === 'all', page: 1, size: 50 }, { pollingInterval: 20_000 });
  const navigate = useNavigate();
  useEffect(() => {
    if (list.isError) toast.error(errorText(list.error, MSG_LIST));
  }, [list.isError, list.error]);
  return (
    <PageBody>
      <PageHeader
        title="Inbox"
        subtitle="Emails received by the inbox agent, each classified with its reason. Verify one to create the bill or the quote it stands for."
        actions={<Button component={RouterLink} to="/email" size="small">Sent emails</Button>}
      />
      <MailboxCard />
      <ToggleButtonGroup size="small" exclusive value={show} onChange={(_, v: Show | null) => v && setShow(v)} sx={{ mb: 2 }}>
        <ToggleButton value="queue">To verify</ToggleButton>
        <ToggleButton value="all">All</ToggleButton>
      </ToggleButtonGroup>
      {list.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {list.isError && <Alert severity="error">{errorText(list.error, MSG_LIST)}</Alert>}
      {list.data && list.data.items.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">{show === 'queue' ? 'Nothing to verify.' : 'No email received yet.'}</Typography>
        </Paper>
      )}
      {list.data && list.data.items.length > 0 && (
        <Paper variant="outlined">
          <List disablePadding aria-label="Received emails">
            {list.data.items.map((m, i) => (
              <Box key={m.id}>
                {i > 0 && <Divider component="li" />}
                <ListItemButton onClick={() => navigate(`/email/inbox/${m.id}`)} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', py: 1.25 }}>
                  <Box sx={{ flex: '1 1 300px', minWidth: 0 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>{m.subject || '(no subject)'}</Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="div">
                      From {m.sender_name ? `${m.sender_name} <${m.sender_email}>` : m.sender_email} · {when(m.received_timestamp)}
                      {m.attachment_count ? ` · ${m.attachment_count} attachment${m.attachment_count > 1 ? 's' : ''}` : ''}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5, whiteSpace: 'normal' }}>
                      {m.classification_reason}
                    </Typography>
                  </Box>
                  <Stack direction="row" spacing={1}>
                    <ClassChip value={m.classification} />
                    {m.read_problems.length > 0 && <Chip size="small" variant="outlined" color="warning" label="Unreadable part" title={m.read_problems.join(' ')} />}
                    {m.verified && <Chip size="small" variant="outlined" color="success" label="Verified" />}
                  </Stack>
                </ListItemButton>
              </Box>
            ))}
          </List>
        </Paper>
      )}
    </PageBody>
  );
}
