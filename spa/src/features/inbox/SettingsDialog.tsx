// The mailbox settings dialog (IMAP server, login, folder, poll interval; a connection test).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { MSG_SAVE, useSaveMailboxMutation, useTestMailboxMutation, type Mailbox, type MailboxBody, type MailboxTest } from './inboxApi';
import { errorText } from './format';

export function SettingsDialog({ mailbox, onClose }: { mailbox: Mailbox; onClose: () => void }) {
  const [form, setForm] = useState<MailboxBody>({
    host: mailbox.host,
    port: mailbox.port,
    security: mailbox.security as MailboxBody['security'],
    username: mailbox.username,
    password: '',
    folder: mailbox.folder,
    poll_every_seconds: mailbox.poll_every_seconds,
  });
  const [tested, setTested] = useState<MailboxTest | null>(null);
  const [save, saving] = useSaveMailboxMutation();
  const [test, testing] = useTestMailboxMutation();
  const set = (patch: Partial<MailboxBody>) => {
    setForm((f) => ({ ...f, ...patch }));
    setTested(null);
  };
  const onTest = async () => {
    try {
      setTested((await test({ settings: form }).unwrap()).data);
    } catch (err) {
      setTested({ ok: false, message: errorText(err, MSG_SAVE), messages: null });
    }
  };
  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    try {
      toast.success((await save(form).unwrap()).message);
      onClose();
    } catch (err) {
      toast.error(errorText(err, MSG_SAVE));
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" component="form" onSubmit={onSave} aria-labelledby="mailbox-title">
      <DialogTitle id="mailbox-title">Mailbox settings</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label="IMAP server" value={form.host} onChange={(e) => set({ host: e.target.value })} required fullWidth />
            <TextField label="Port" type="number" value={form.port} onChange={(e) => set({ port: Number(e.target.value) })} sx={{ minWidth: 110 }} />
          </Stack>
          <TextField select label="Security" value={form.security} onChange={(e) => set({ security: e.target.value as MailboxBody['security'], port: e.target.value === 'ssl' ? 993 : 143 })}>
            <MenuItem value="ssl">TLS (IMAPS)</MenuItem>
            <MenuItem value="starttls">STARTTLS</MenuItem>
            <MenuItem value="none">None (trusted network only)</MenuItem>
          </TextField>
          <TextField label="User name" value={form.username} onChange={(e) => set({ username: e.target.value })} required autoComplete="off" />
          <TextField
            label="Password"
            type="password"
            value={form.password ?? ''}
            onChange={(e) => set({ password: e.target.value })}
            autoComplete="new-password"
            helperText={mailbox.has_password ? 'A password is stored (encrypted). Leave blank to keep it.' : 'Stored encrypted; never shown again.'}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label="Folder" value={form.folder} onChange={(e) => set({ folder: e.target.value })} fullWidth />
            <TextField label="Check every (minutes)" type="number" value={Math.round((form.poll_every_seconds ?? 120) / 60)} onChange={(e) => set({ poll_every_seconds: Math.max(1, Number(e.target.value)) * 60 })} fullWidth slotProps={{ htmlInput: { min: 1 } }} />
          </Stack>
          {tested && <Alert severity={tested.ok ? 'success' : 'error'} data-testid="mailbox-test-result">{tested.message}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onTest} disabled={testing.isLoading || !form.host || !form.username}>
          {testing.isLoading ? 'Testing…' : 'Test connection'}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={saving.isLoading}>Save</Button>
      </DialogActions>
    </Dialog>
  );
}
