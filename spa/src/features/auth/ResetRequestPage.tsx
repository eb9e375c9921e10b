import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { LightTextField as TextField } from '@/components/common/LightTextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { isApiError } from '@/lib/api/errors';
import { emailProblem } from '@/lib/validation';
import { useRequestPasswordResetMutation } from './authApi';
import PublicFrame from './PublicFrame';

export default function ResetRequestPage() {
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [request, { isLoading }] = useRequestPasswordResetMutation();

  useEffect(() => {
    document.title = 'Reset your password · FuelDesk';
  }, []);

  const emailError = submitted ? emailProblem(email) : null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setError(null);
    if (emailProblem(email)) return;
    try {
      const res = await request({ email: email.trim() }).unwrap();
      setSentMessage(res.message || 'If an account exists for this email, a link to reset the password is on its way.');
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The request could not be sent. Please try again.');
    }
  };

  return (
    <PublicFrame>
      <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
        Reset your password
      </Typography>
      {sentMessage ? (
        <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Alert severity="success" role="status">
            {sentMessage}
          </Alert>
          <Typography color="text.secondary">
            The link in the email is valid for a limited time. Check your spam folder if it does not arrive within a few
            minutes.
          </Typography>
          <Link component={RouterLink} to="/">Back to sign in</Link>
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} sx={{ mt: 1, display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography color="text.secondary">Enter your work email and we will send you a link to choose a new password.</Typography>
          {error && <Alert severity="error" role="alert">{error}</Alert>}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={!!emailError}
            helperText={emailError ?? ' '}
      
          />
          <Button type="submit" variant="contained" size="large" disabled={isLoading}>
            {isLoading ? 'Sending…' : 'Send reset link'}
          </Button>
          <Link component={RouterLink} to="/" variant="body2">Back to sign in</Link>
        </Box>
      )}
    </PublicFrame>
  );
}
