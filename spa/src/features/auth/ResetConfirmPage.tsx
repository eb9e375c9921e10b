import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { LightTextField as TextField } from '@/components/common/LightTextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { isApiError } from '@/lib/api/errors';
import { passwordProblem } from '@/lib/validation';
import { useConfirmPasswordResetMutation } from './authApi';
import PublicFrame from './PublicFrame';

export default function ResetConfirmPage() {
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<{ text: string; expired: boolean } | null>(null);
  const [confirmReset, { isLoading }] = useConfirmPasswordResetMutation();
  const navigate = useNavigate();

  useEffect(() => {
    document.title = 'Choose a new password · FuelDesk';
  }, []);

  const pwError = submitted ? passwordProblem(password) : null;
  const confirmError = submitted && !pwError && confirm !== password ? 'The passwords do not match' : null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setError(null);
    if (passwordProblem(password) || confirm !== password) return;
    try {
      const res = await confirmReset({ token, password }).unwrap();
      toast.success(res.message || 'Your password has been changed. You can sign in now.');
      navigate('/', { replace: true });
    } catch (err) {
      const text = isApiError(err) ? err.message : 'The password could not be changed. Please try again.';
      setError({ text, expired: isApiError(err) && err.status === 400 });
    }
  };

  return (
    <PublicFrame>
      <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
        Choose a new password
      </Typography>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
        {error && (
          <Alert severity="error" role="alert">
            {error.text}{' '}
            {error.expired && (
              <Link component={RouterLink} to="/reset-password">
                Request a new link
              </Link>
            )}
          </Alert>
        )}
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!pwError}
          helperText={pwError ?? 'At least 10 characters with letters and digits'}
        />
        <TextField
          label="Confirm new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={!!confirmError}
          helperText={confirmError ?? ' '}
        />
        <Button type="submit" variant="contained" size="large" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Set new password'}
        </Button>
        <Link component={RouterLink} to="/" variant="body2">Back to sign in</Link>
      </Box>
    </PublicFrame>
  );
}
