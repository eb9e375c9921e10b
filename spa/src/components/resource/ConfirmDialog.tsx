import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type ReactNode } from 'react';
import { isApiError } from '@/lib/api/errors';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  destructive?: boolean;
  /** Resolves when done; a rejection's sentence (e.g. the server's 409 detail) is shown in the dialog. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  /** Offered when the action is refused with 409 (e.g. 'Deactivate instead'). */
  alternative?: { label: string; run: () => Promise<unknown> };
}

export function ConfirmDialog({ open, title, message, confirmLabel = 'Delete', destructive = true, onConfirm, onClose, alternative }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; conflict: boolean } | null>(null);
  const titleId = useId();
  const descId = useId();

  // Each opening starts afresh (state adjusted during render, the React way for a prop change).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setBusy(false);
      setError(null);
    }
  }

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError({ text: isApiError(err) ? err.message : 'The action failed. Please try again.', conflict: isApiError(err) && err.status === 409 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby={titleId} aria-describedby={descId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={descId} component="div">
          {message}
        </DialogContentText>
        {error && (
          <Alert severity={error.conflict ? 'warning' : 'error'} role="alert" sx={{ mt: 2 }} data-testid="confirm-error">
            {error.text}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        {alternative && error?.conflict && (
          <Button onClick={() => run(alternative.run)} disabled={busy} variant="outlined">
            {alternative.label}
          </Button>
        )}
        <Button onClick={() => run(onConfirm)} disabled={busy} variant="contained" color={destructive ? 'error' : 'primary'}>
          {busy ? 'Working…' : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
