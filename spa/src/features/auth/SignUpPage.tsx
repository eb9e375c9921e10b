import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { LightTextField as TextField } from '@/components/common/LightTextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { useAppDispatch } from '@/lib/session/hooks';
import { storeSession } from '@/lib/session/login';
import { isApiError } from '@/lib/api/errors';
import { emailProblem, passwordProblem } from '@/lib/validation';
import { useSignupMutation } from './authApi';
import PublicFrame from './PublicFrame';

type Field = 'company_name' | 'name' | 'email' | 'password' | 'confirm';

function validate(v: Record<Field, string>): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (v.company_name.trim().length < 2) errors.company_name = 'Company name needs at least 2 characters';
  if (!v.name.trim()) errors.name = 'Your name is required';
  const email = emailProblem(v.email);
  if (email) errors.email = email;
  const pw = passwordProblem(v.password);
  if (pw) errors.password = pw;
  if (!errors.password && v.confirm !== v.password) errors.confirm = 'The passwords do not match';
  return errors;
}

export default function SignUpPage() {
  const [values, setValues] = useState<Record<Field, string>>({ company_name: '', name: '', email: '', password: '', confirm: '' });
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [signup, { isLoading }] = useSignupMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  useEffect(() => {
    document.title = 'Create your company · FuelDesk';
  }, []);

  const clientErrors = submitted ? validate(values) : {};
  const errors = { ...serverErrors, ...clientErrors };
  const set = (field: Field) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setServerErrors((s) => ({ ...s, [field]: undefined }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setError(null);
    if (Object.keys(validate(values)).length) return;
    try {
      const session = await signup({
        company_name: values.company_name.trim(),
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
      }).unwrap();
      storeSession(dispatch, session);
      toast.success(`Welcome to FuelDesk, ${session.user.name}!`, { toastId: 'signup-ok' });
      navigate('/dashboard', { replace: true });
    } catch (err) {
      if (!isApiError(err)) return setError('Sign-up failed. Please try again.');
      const fields = err.fieldErrors ?? {};
      setServerErrors(fields);
      if (err.status === 422 && /password/i.test(err.message) && !fields.password) setServerErrors({ password: err.message });
      else setError(err.message);
    }
  };

  const field = (name: Field, label: string, props: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={set(name)}
      error={!!errors[name]}
      helperText={errors[name] ?? (props.helperText as string | undefined) ?? ' '}

      required
      {...props}
    />
  );

  return (
    <PublicFrame>
      <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
        Create your company
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        Set up FuelDesk for your business. You will be its first administrator.
      </Typography>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        {field('company_name', 'Company name', { autoComplete: 'organization', autoFocus: true })}
        {field('name', 'Your name', { autoComplete: 'name' })}
        {field('email', 'Work email', { type: 'email', autoComplete: 'email' })}
        {field('password', 'Password', { type: 'password', autoComplete: 'new-password', helperText: 'At least 10 characters with letters and digits' })}
        {field('confirm', 'Confirm password', { type: 'password', autoComplete: 'new-password' })}
        <Button type="submit" variant="contained" size="large" disabled={isLoading}>
          {isLoading ? 'Creating your company…' : 'Create company'}
        </Button>
        <Typography variant="body2" color="text.secondary">
          By creating an account you accept the{' '}
          <Link component={RouterLink} to="/eula">licence agreement</Link> and the{' '}
          <Link component={RouterLink} to="/privacy-policy">privacy policy</Link>.
        </Typography>
        <Link component={RouterLink} to="/" variant="body2">
          Already have an account? Sign in
        </Link>
      </Box>
    </PublicFrame>
  );
}
