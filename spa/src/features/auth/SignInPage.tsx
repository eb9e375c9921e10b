import GoogleIcon from '@mui/icons-material/Google';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import { LightTextField as TextField } from '@/components/common/LightTextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { useAppDispatch } from '@/lib/session/hooks';
import { landingPath, storeSession } from '@/lib/session/login';
import { isApiError } from '@/lib/api/errors';
import { useLoginGoogleMutation, useLoginGoogleStartMutation, useLoginMutation } from './authApi';
import PublicFrame from './PublicFrame';

export default function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  useEffect(() => {
    document.title = 'Sign in · FuelDesk';
  }, []);

  // "Sign in with Google": Google sends the browser back here with ?code&state (or ?error).
  const location = useLocation();
  const [startGoogle, startingGoogle] = useLoginGoogleStartMutation();
  const [loginGoogle, loggingInGoogle] = useLoginGoogleMutation();
  const handledGoogle = useRef<string | null>(null);
  useEffect(() => {
    const q = new URLSearchParams(location.search);
    const code = q.get('code');
    const state = q.get('state');
    const googleError = q.get('error');
    if ((!code || !state) && !googleError) return;
    if (handledGoogle.current === location.search) return;
    handledGoogle.current = location.search;
    void navigate(location.pathname, { replace: true });
    if (googleError || !code || !state) {
      toast.error(googleError === 'access_denied' ? 'Google sign-in was cancelled.' : 'Google sign-in failed. Please try again.');
      return;
    }
    loginGoogle({ code, state })
      .unwrap()
      .then((envelope) => {
        storeSession(dispatch, envelope.data);
        toast.success(envelope.message || 'Login successful', { toastId: 'login-ok' });
        void navigate(landingPath(), { replace: true });
      })
      .catch((err: unknown) => setError(isApiError(err) ? err.message : 'Google sign-in failed. Please try again.'));
  }, [location.search, location.pathname, loginGoogle, dispatch, navigate]);

  const onGoogle = async () => {
    setError(null);
    try {
      const { authorization_url } = await startGoogle().unwrap();
      window.location.assign(authorization_url);
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Google sign-in is not available.');
    }
  };

  const emailError = touched && !email.trim() ? 'Enter your email or username' : null;
  const passwordError = touched && !password ? 'Enter your password' : null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setError(null);
    if (!email.trim() || !password) return;
    try {
      const envelope = await login({ email: email.trim(), password }).unwrap();
      storeSession(dispatch, envelope.data);
      toast.success(envelope.message || 'Login successful', { toastId: 'login-ok' });
      navigate(landingPath(), { replace: true });
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Sign-in failed. Please try again.');
    }
  };

  return (
    <PublicFrame>
      <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
        Sign in
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        Welcome back. Sign in with your work email.
      </Typography>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={!!emailError}
          helperText={emailError ?? ' '}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!passwordError}
          helperText={passwordError ?? ' '}
        />
        <Button type="submit" variant="contained" size="large" disabled={isLoading}>
          {isLoading ? 'Signing in…' : 'Sign in'}
        </Button>
        <Divider sx={{ color: 'text.secondary', typography: 'body2' }}>or</Divider>
        <Button
          variant="outlined"
          size="large"
          startIcon={<GoogleIcon />}
          onClick={() => void onGoogle()}
          disabled={startingGoogle.isLoading || loggingInGoogle.isLoading}
        >
          {loggingInGoogle.isLoading ? 'Signing in with Google…' : 'Sign in with Google'}
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Link component={RouterLink} to="/reset-password" variant="body2">
            Forgot your password?
          </Link>
          <Link component={RouterLink} to="/signup" variant="body2">
            New company? Create an account
          </Link>
        </Box>
      </Box>
    </PublicFrame>
  );
}
