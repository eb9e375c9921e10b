// One email: its classification, attachments and proposal, and the form that verifies it.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { apiDownload } from '@/lib/api/http';
import { CLASSIFICATION_LABEL, MSG_DETAILS, MSG_VERIFY, useInboxMessageQuery, useVerifyMessageMutation } from './inboxApi';
import { BillVerify } from './BillVerify';
import { ClassChip } from './ClassChip';
import { QuoteVerify } from './QuoteVerify';
import { ReadAs } from './ReadAs';
import { errorText, recordText, when } from './format';

export function InboxDetail() {
  const { id } = useParams();
  const messageId = Number(id);
  const valid = Number.isInteger(messageId) && messageId > 0;
  const detail = useInboxMessageQuery(messageId, { skip: !valid });
  const [verify, state] = useVerifyMessageMutation();
  const navigate = useNavigate();
  const m = detail.data;
  const download = async (index: number, name: string) => {
    try {
      const blob = await apiDownload(`/email-agent/${messageId}/attachments/${index}`, undefined, '*/*');
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      toast.error(errorText(err, 'Download failed'));
    }
  };
  const dismiss = async () => {
    try {
      toast.success((await verify({ id: messageId, body: { verified_as: 'other' } }).unwrap()).message);
      navigate('/email/inbox');
    } catch (err) {
      toast.error(errorText(err, MSG_VERIFY));
    }
  };
  return (
    <PageBody>
      <Button component={RouterLink} to="/email/inbox" size="small" sx={{ mb: 1 }}>← Inbox</Button>
      {!valid && <Alert severity="error">{MSG_DETAILS}</Alert>}
      {detail.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress /></Box>}
      {detail.isError && <Alert severity="error">{errorText(detail.error, MSG_DETAILS)}</Alert>}
      {m && (
        <>
          <PageHeader title={m.subject || '(no subject)'} subtitle={`From ${m.sender_name ? `${m.sender_name} <${m.sender_email}>` : m.sender_email} · ${when(m.received_timestamp)}`} actions={<ClassChip value={m.classification} />} />
          <Alert severity="info" sx={{ mb: 2 }} data-testid="classification-reason">
            Classified as <b>{CLASSIFICATION_LABEL[m.classification] ?? m.classification}</b>: {m.classification_reason}
          </Alert>
          {m.read_problems.length > 0 && (
            <Alert severity="warning" sx={{ mb: 2 }} data-testid="read-problems">
              <b>Could not be read in full.</b> {m.read_problems.join(' ')}
            </Alert>
          )}
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>{m.verified ? 'Verified' : 'Verify'}</Typography>
            {m.verified ? (
              <Typography variant="body2">
                Verified as {CLASSIFICATION_LABEL[m.verified_as] ?? m.verified_as} by {m.verified_by_name || 'a user'} on {when(m.verified_at)}.
                {m.created_record && (
                  <> Created: <RouterLink to={recordText(m.created_record.path)}>{recordText(m.created_record.label)}</RouterLink></>
                )}
              </Typography>
            ) : (
              <Stack spacing={2}>
                {(m.quote_proposal || (m.classification === 'price_quote_reply' && !m.bill_proposal)) && (
                  <QuoteVerify key={`q-${m.quote_proposal?.quote_request_id ?? 0}-${m.quote_proposal?.supplier_id ?? 0}`} message={m} />
                )}
                {(m.bill_proposal || (m.classification === 'bill' && !m.quote_proposal)) && (
                  <BillVerify key={`b-${(m.bill_proposal as { parse_id?: number } | null)?.parse_id ?? 0}`} message={m} />
                )}
                {!m.quote_proposal && !m.bill_proposal && <ReadAs message={m} />}
                <Box>
                  <Button color="inherit" disabled={state.isLoading} onClick={dismiss}>Dismiss (other)</Button>
                </Box>
              </Stack>
            )}
          </Paper>
          {m.attachments.length > 0 && (
            <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
              {m.attachments.map((a, i) => (
                <Chip
                  key={`${a.file_name}-${i}`}
                  label={a.problem ? `${a.file_name} (could not be read)` : `${a.file_name} (${Math.ceil(a.size / 1024)} KB)`}
                  title={a.problem || undefined}
                  color={a.problem ? 'warning' : 'default'}
                  onClick={a.problem && a.size === 0 ? undefined : () => download(i, a.file_name)}
                  variant="outlined"
                />
              ))}
            </Stack>
          )}
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="body2" component="pre" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit', m: 0 }}>
              {m.body || '(no text)'}
            </Typography>
          </Paper>
        </>
      )}
    </PageBody>
  );
}
