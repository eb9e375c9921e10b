import EditOutlined from '@mui/icons-material/EditOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { useAppDispatch, useAppSelector } from '@/lib/session/hooks';
import { settingsSaved, isSettingsValidationText } from '@/lib/session/sessionSlice';
import type { CompanySettings } from '@/lib/session/types';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { FormField } from '@/components/resource/FormFields';
import type { FieldDef } from '@/components/resource/formTypes';
import { validateValues } from '@/components/resource/validation';
import { isApiError } from '@/lib/api/errors';
import { useCityOptions, useStateOptions } from '@/lib/api/lookups';
import { urlProblem } from '@/lib/validation';
import { useCreateCompanySettingsMutation, useUpdateCompanySettingsMutation, useUploadFileMutation, type CompanySettingsIn, type UploadedFile } from './companyApi';
import { LogoUploader } from './LogoUploader';
import { LOGO_MAX_BYTES, LOGO_TYPES, MSG } from './messages';
import { toText } from '@/lib/text';

interface SettingsForm {
  company_name: string;
  email: string;
  phone_number: string;
  website_url: string;
  address_one: string;
  address_two: string;
  state_id: number | null;
  city_id: number | null;
  zip_code: string;
  postal_code: string;
}

/** A logo as the page holds it: the key it sends back, the server-built URL it shows. */
interface Logo {
  file_key: string;
  file_url: string;
}

const fields: FieldDef<SettingsForm>[] = [
  { name: 'company_name', label: 'Company name', required: true, maxLength: 200, width: 12, autoComplete: 'organization' },
  { name: 'email', label: 'Email', type: 'email', width: 6, autoComplete: 'email' },
  { name: 'phone_number', label: 'Phone number', width: 6, maxLength: 40, autoComplete: 'tel', pattern: { regex: /^[0-9+()\-.\s x]{5,40}$/i, message: 'Enter a phone number (digits, spaces, + - ( ) and x)' } },
  { name: 'website_url', label: 'Website', width: 12, maxLength: 200, placeholder: 'https://example.com', validate: (v) => urlProblem(toText(v)) },
  { name: 'address_one', label: 'Address line 1', width: 12, maxLength: 200, autoComplete: 'address-line1' },
  { name: 'address_two', label: 'Address line 2', width: 12, maxLength: 200, autoComplete: 'address-line2' },
  { name: 'state_id', label: 'State', type: 'select', width: 6, useOptions: () => useStateOptions() },
  { name: 'city_id', label: 'City', type: 'select', width: 6, useOptions: (v) => useCityOptions(v.state_id), helperText: 'Pick the state first to narrow the list' },
  { name: 'zip_code', label: 'ZIP code', width: 6, maxLength: 20, autoComplete: 'postal-code' },
  { name: 'postal_code', label: 'Postal code', width: 6, maxLength: 20, helperText: 'Outside the US, if different' },
];

function toForm(s: CompanySettings | null): SettingsForm {
  return {
    company_name: s?.company_name ?? '',
    email: s?.email ?? '',
    phone_number: s?.phone_number ?? '',
    website_url: s?.website_url ?? '',
    address_one: s?.address_one ?? '',
    address_two: s?.address_two ?? '',
    state_id: s?.state_id ?? null,
    city_id: s?.city_id ?? null,
    zip_code: s?.zip_code ?? '',
    postal_code: s?.postal_code ?? '',
  };
}

function toBody(v: SettingsForm, logo: Logo[]): CompanySettingsIn {
  const t = (x: string) => x.trim();
  const site = t(v.website_url);
  return {
    company_name: t(v.company_name),
    email: t(v.email) || null,
    phone_number: t(v.phone_number),
    website_url: site && !/^https?:\/\//i.test(site) ? `https://${site}` : site,
    address_one: t(v.address_one),
    address_two: t(v.address_two),
    state_id: v.state_id,
    city_id: v.city_id,
    zip_code: t(v.zip_code),
    postal_code: t(v.postal_code),
    logo: logo.map((l) => ({ file_key: l.file_key })),
  };
}

/** The server takes the uploaded file's key alone and builds the rest (its URL included). */
function toLogo(f: UploadedFile): Logo {
  return { file_key: f.file_key, file_url: f.file_url };
}

export function checkLogoFile(file: File): string | null {
  if (!LOGO_TYPES.includes(file.type)) return 'The logo must be a PNG, JPEG, GIF or WebP image.';
  if (file.size > LOGO_MAX_BYTES) return 'The file is too large: the limit is 5 MB.';
  return null;
}

export default function CompanySettingsPage() {
  const dispatch = useAppDispatch();
  const { settings, settingsStatus, settingsError } = useAppSelector((s) => s.session);
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<SettingsForm>(toForm(settings));
  const [logo, setLogo] = useState<Logo[]>(settings?.logo ?? []);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [createSettings, createState] = useCreateCompanySettingsMutation();
  const [updateSettings, updateState] = useUpdateCompanySettingsMutation();
  const [upload, uploadState] = useUploadFileMutation();
  const saving = createState.isLoading || updateState.isLoading;

  const startEdit = () => {
    setValues(toForm(settings));
    setLogo(settings?.logo ?? []);
    setPreview(null);
    setErrors({});
    setSubmitted(false);
    setFormError(null);
    setLogoError(null);
    setEditing(true);
  };

  const save = async (body: CompanySettingsIn): Promise<boolean> => {
    try {
      const saved = settings?.id ? await updateSettings({ id: settings.id, body }).unwrap() : await createSettings(body).unwrap();
      dispatch(settingsSaved(saved));
      toast.success(settings?.id ? MSG.updated : MSG.created);
      return true;
    } catch (err) {
      const text = isApiError(err) ? err.message : '';
      if (!settings?.id && isSettingsValidationText(text)) toast.error(MSG.validation);
      else toast.error(settings?.id ? MSG.updateFailed : MSG.createFailed);
      if (isApiError(err) && err.fieldErrors) setErrors(err.fieldErrors);
      setFormError(text || (settings?.id ? MSG.updateFailed : MSG.createFailed));
      return false;
    }
  };

  const onPick = async (file: File, saveNow: boolean) => {
    setLogoError(null);
    const problem = checkLogoFile(file);
    if (problem) {
      setLogoError(problem);
      toast.error(MSG.uploadFailed);
      return;
    }
    const local = URL.createObjectURL(file);
    setPreview(local);
    try {
      const uploaded = toLogo(await upload({ file, purpose: 'logo' }).unwrap());
      setLogo([uploaded]);
      if (saveNow && settings) await save({ ...toBody(toForm(settings), [uploaded]) });
    } catch (err) {
      setPreview(null);
      setLogoError(isApiError(err) ? err.message : MSG.uploadFailed);
      toast.error(MSG.uploadFailed);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setFormError(null);
    const found = validateValues(fields, values, settings?.id ? 'edit' : 'create');
    setErrors(found);
    if (Object.keys(found).length) return;
    if (await save(toBody(values, logo))) setEditing(false);
  };

  const onChange = (name: string, value: unknown) =>
    setValues((prev) => {
      const next = { ...prev, [name]: value };
      if (name === 'state_id' && value !== prev.state_id) next.city_id = null;
      if (submitted) setErrors(validateValues(fields, next, settings?.id ? 'edit' : 'create'));
      return next;
    });

  if (settingsStatus === 'pending' || settingsStatus === 'idle') {
    return (
      <PageBody>
        <PageHeader title="Company Settings" />
        <CircularProgress aria-label="Loading company settings" />
      </PageBody>
    );
  }

  const hasSettings = !!settings?.id;
  const address = [settings?.address_one, settings?.address_two, [settings?.city?.name, settings?.state?.code ?? settings?.state?.name, settings?.zip_code].filter(Boolean).join(', '), settings?.postal_code]
    .filter((x) => x && String(x).trim())
    .join('\n');

  return (
    <PageBody>
      <PageHeader
        title="Company Settings"
        subtitle="Your company profile: it appears in the menu and on the documents you send."
        actions={
          <>
            <Button component={RouterLink} to="/company-settings/job-log" variant="outlined" startIcon={<HistoryOutlined />}>
              Job log
            </Button>
            <Button component={RouterLink} to="/company-settings/export" variant="outlined" startIcon={<Inventory2Outlined />}>
              Export all data
            </Button>
            {!editing && (
              <Button variant="contained" startIcon={<EditOutlined />} onClick={startEdit}>
                {hasSettings ? 'Edit' : 'Set up company profile'}
              </Button>
            )}
          </>
        }
      />
      {settingsStatus === 'rejected' && <Alert severity="error" sx={{ mb: 2 }}>{settingsError}</Alert>}

      {!editing && !hasSettings && (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
            No company profile yet
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Add your company’s name, address, contact details and logo. Until then the menu shows a placeholder name.
          </Typography>
          <Button variant="contained" sx={{ mt: 2 }} onClick={startEdit}>
            Set up company profile
          </Button>
        </Paper>
      )}

      {!editing && hasSettings && settings && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid="company-settings-view">
          <LogoUploader url={settings.logo?.[0]?.file_url ?? null} companyName={settings.company_name} uploading={uploadState.isLoading || updateState.isLoading} error={logoError} onPick={(f) => void onPick(f, true)} />
          <Box component="dl" sx={{ mb: 0, mx: 0, mt: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' }, rowGap: 1.5, columnGap: 2, '& dt': { color: 'text.secondary', fontWeight: 600 }, '& dd': { m: 0, whiteSpace: 'pre-line' } }}>
            <dt>Company name</dt>
            <dd>{settings.company_name}</dd>
            <dt>Email</dt>
            <dd>{settings.email || '—'}</dd>
            <dt>Phone</dt>
            <dd>{settings.phone_number || '—'}</dd>
            <dt>Website</dt>
            <dd>{settings.website_url || '—'}</dd>
            <dt>Address</dt>
            <dd>{address || '—'}</dd>
          </Box>
        </Paper>
      )}

      {editing && (
        <Paper variant="outlined" component="form" noValidate onSubmit={onSubmit} sx={{ p: { xs: 2, sm: 3 } }} aria-label="Company profile">
          {formError && <Alert severity="error" role="alert" sx={{ mb: 2 }}>{formError}</Alert>}
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
            Logo
          </Typography>
          <LogoUploader
            url={preview ?? logo[0]?.file_url ?? null}
            companyName={values.company_name}
            uploading={uploadState.isLoading}
            error={logoError}
            onPick={(f) => void onPick(f, false)}
            onRemove={() => {
              setLogo([]);
              setPreview(null);
            }}
          />
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, mt: 3, mb: 1 }}>
            Details
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(12, 1fr)', columnGap: 2, rowGap: 1 }}>
            {fields.map((f) => (
              <Box key={f.name} sx={{ gridColumn: { xs: 'span 12', sm: `span ${f.width ?? 12}` }, pt: 0.5 }}>
                <FormField field={f} values={values} mode={hasSettings ? 'edit' : 'create'} error={errors[f.name]} disabled={saving} onChange={onChange} />
              </Box>
            ))}
          </Box>
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', mt: 2 }}>
            <Button onClick={() => setEditing(false)} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" variant="contained" disabled={saving || uploadState.isLoading}>
              {saving ? 'Saving…' : hasSettings ? 'Save changes' : 'Create company profile'}
            </Button>
          </Box>
        </Paper>
      )}
    </PageBody>
  );
}
