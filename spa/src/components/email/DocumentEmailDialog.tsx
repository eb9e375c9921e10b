import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useCallback, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import {
  MSG,
  draftsToPayload,
  emailErrorText,
  formatAddressField,
  parseAddressField,
  useSendEmailsMutation,
  type EmailDraft,
} from './documentEmailApi';

export interface DraftsState {
  loading: boolean;
  error: string | null;
  drafts: EmailDraft[];
  /** Changes with every preparation: the editor starts again from the new drafts. */
  version: number;
  /** One idempotency key per preparation: a double click on Send never sends twice. */
  batchKey: string;
}

/** The drafts of one dialog: `load(...)` asks the server (from an event handler) and keeps the answer. */
export function useEmailDrafts<A extends unknown[]>(prepare: (...args: A) => Promise<EmailDraft[]>, prepareError: string) {
  const [state, setState] = useState<DraftsState>({ loading: false, error: null, drafts: [], version: 0, batchKey: '' });
  const load = useCallback(
    async (...args: A) => {
      const batchKey = `dialog-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      setState((s) => ({ ...s, loading: true, error: null, drafts: [] }));
      try {
        const drafts = await prepare(...args);
        setState((s) => ({ loading: false, error: null, drafts, version: s.version + 1, batchKey }));
      } catch (err) {
        setState((s) => ({ ...s, loading: false, error: emailErrorText(err, prepareError), drafts: [], version: s.version + 1 }));
      }
    },
    [prepare, prepareError],
  );
  return { state, load };
}

interface EditableDraft {
  draft: EmailDraft;
  cc: string;
  bcc: string;
}

export interface DocumentEmailDialogProps {
  open: boolean;
  title: string;
  state: DraftsState;
  /** After the emails are queued: mark the document as emailed. */
  markSent: () => Promise<unknown>;
  markError: string;
  onClose: (sent: boolean) => void;
  /** Options above the drafts (e.g. "attach the delivery ticket"): changing one prepares again. */
  options?: ReactNode;
}

/**
 * Prepare → edit → send → mark as sent (spec section 4): the drafts come from the server, every
 * field stays editable, and Send posts them to the outbox (POST /email/) in one call.
 */
export function DocumentEmailDialog({ open, title, state, markSent, markError, onClose, options }: DocumentEmailDialogProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={() => onClose(false)} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="document-email-title">
      <DialogTitle id="document-email-title">{title}</DialogTitle>
      <DraftEditor key={state.version} state={state} options={options} markSent={markSent} markError={markError} onClose={onClose} />
    </Dialog>
  );
}

function DraftEditor({ state, options, markSent, markError, onClose }: Omit<DocumentEmailDialogProps, 'open' | 'title'>) {
  const [drafts, setDrafts] = useState<EditableDraft[]>(() =>
    state.drafts.map((d) => ({ draft: d, cc: formatAddressField(d.cc), bcc: formatAddressField(d.bcc) })),
  );
  const [oneForAll, setOneForAll] = useState(false);
  const [sendEmails, sending] = useSendEmailsMutation();

  const edit = (i: number, patch: Partial<EditableDraft> & { fields?: Partial<EmailDraft> }) =>
    setDrafts((list) =>
      list.map((d, j) => (j === i ? { ...d, cc: patch.cc ?? d.cc, bcc: patch.bcc ?? d.bcc, draft: { ...d.draft, ...patch.fields } } : d)),
    );

  const send = async () => {
    const ready = drafts.map((d) => ({ ...d.draft, cc: parseAddressField(d.cc), bcc: parseAddressField(d.bcc) }));
    let message: string;
    try {
      message = (await sendEmails(draftsToPayload(ready, oneForAll, state.batchKey)).unwrap()).message;
    } catch (err) {
      toast.error(emailErrorText(err, MSG.send));
      return;
    }
    try {
      await markSent();
    } catch (err) {
      toast.error(emailErrorText(err, markError));
    }
    toast.success(message || 'Email queued for sending');
    onClose(true);
  };

  return (
    <>
      <DialogContent dividers>
        {options}
        {state.loading && (
          <Box sx={{ py: 4, textAlign: 'center' }}>
            <CircularProgress size={28} />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>Preparing the emails…</Typography>
          </Box>
        )}
        {state.error && <Alert severity="error" sx={{ my: 1 }}>{state.error}</Alert>}
        {!state.loading && drafts.length > 1 && (
          <FormControlLabel
            control={<Checkbox checked={oneForAll} onChange={(e) => setOneForAll(e.target.checked)} />}
            label={`One email to all ${drafts.length} recipients (instead of one each)`}
          />
        )}
        <Stack spacing={2} sx={{ mt: 1 }}>
          {!state.loading &&
            drafts.map((d, i) => (
              <Paper key={i} variant="outlined" sx={{ p: 2 }} data-testid="email-draft">
                <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' } }}>
                  <TextField size="small" label="To" value={d.draft.recipient_email} onChange={(e) => edit(i, { fields: { recipient_email: e.target.value } })} />
                  <TextField size="small" label="Name" value={d.draft.recipient_name} onChange={(e) => edit(i, { fields: { recipient_name: e.target.value } })} />
                  <TextField size="small" label="Cc" placeholder="Name <address>, address" value={d.cc} onChange={(e) => edit(i, { cc: e.target.value })} />
                  <TextField size="small" label="Bcc" value={d.bcc} onChange={(e) => edit(i, { bcc: e.target.value })} />
                </Box>
                <TextField size="small" fullWidth label="Subject" sx={{ mt: 1.5 }} value={d.draft.subject} onChange={(e) => edit(i, { fields: { subject: e.target.value } })} />
                <TextField size="small" fullWidth multiline minRows={4} label="Message" sx={{ mt: 1.5 }} value={d.draft.body} onChange={(e) => edit(i, { fields: { body: e.target.value } })} />
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1.5 }}>
                  {d.draft.attachments.map((a) => (
                    <Chip key={a.file_key} size="small" variant="outlined" label={`${a.file_name} · ${Math.max(1, Math.round(a.size / 1024))} KB`} />
                  ))}
                  <Box sx={{ flex: 1 }} />
                  {drafts.length > 1 && (
                    <Button size="small" color="error" onClick={() => setDrafts((list) => list.filter((_, j) => j !== i))}>Remove</Button>
                  )}
                </Box>
              </Paper>
            ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>Cancel</Button>
        <Button variant="contained" disabled={state.loading || sending.isLoading || drafts.length === 0} onClick={() => void send()}>
          {sending.isLoading ? 'Sending…' : drafts.length > 1 && !oneForAll ? `Send ${drafts.length} emails` : 'Send'}
        </Button>
      </DialogActions>
    </>
  );
}
