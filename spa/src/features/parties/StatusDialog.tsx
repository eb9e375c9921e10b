import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { isApiError } from '@/lib/api/errors';
import type { StatusStyle } from '@/components/resource';

export interface StatusDialogProps<S extends string> {
  title: string;
  current: S;
  statuses: Record<S, StatusStyle & { help: string }>;
  onSubmit: (status: S) => Promise<unknown>;
  onClose: () => void;
}

/** Picks a new status (the dedicated status call of customers and suppliers). */
export function StatusDialog<S extends string>({ title, current, statuses, onSubmit, onClose }: StatusDialogProps<S>) {
  const [value, setValue] = useState<S>(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSubmit(value);
      onClose();
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Failed to change the status');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {error && (
          <Alert severity="error" role="alert" sx={{ mb: 1 }}>
            {error}
          </Alert>
        )}
        <RadioGroup value={value} onChange={(e) => setValue(e.target.value as S)} aria-label="Status">
          {(Object.keys(statuses) as S[]).map((s) => (
            <FormControlLabel
              key={s}
              value={s}
              control={<Radio />}
              label={
                <>
                  <Typography component="span" sx={{ fontWeight: 600 }}>
                    {statuses[s].label}
                  </Typography>
                  <Typography component="span" variant="body2" color="text.secondary">
                    {' — '}
                    {statuses[s].help}
                  </Typography>
                </>
              }
            />
          ))}
        </RadioGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={save} disabled={busy || value === current}>
          {busy ? 'Saving…' : 'Change status'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
