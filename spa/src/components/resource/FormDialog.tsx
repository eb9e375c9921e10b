import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, useId, useState, type FormEvent } from 'react';
import { isApiError } from '@/lib/api/errors';
import { FormField } from './FormFields';
import type { FieldDef, FormMode } from './formTypes';
import { isHidden, validateValues, type FormErrors } from './validation';

export interface FormDialogProps<V> {
  open: boolean;
  mode: FormMode;
  title: string;
  fields: readonly FieldDef<V>[];
  initialValues: V;
  /** Resolves when saved; rejects with an ApiError whose field errors are shown on the fields. */
  onSubmit: (values: V) => Promise<unknown>;
  onClose: () => void;
  submitLabel?: string;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  /**
   * A sentence for the whole form (shown above the fields), checked with the field rules; e.g. the
   * server's own 'Missing required fields'. Gets the field errors found so far.
   */
  validateForm?: (values: V, mode: FormMode, fieldErrors: FormErrors) => string | null;
}

/** A create/edit dialog built from field descriptions, with client-side validation. */
export function FormDialog<V>({ open, mode, title, fields, initialValues, onSubmit, onClose, submitLabel, maxWidth = 'sm', validateForm }: FormDialogProps<V>) {
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const fullScreen = useMediaQuery('(max-width:600px)');
  const titleId = useId();

  // Each opening starts from the initial values (state adjusted during render when `open` turns true).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setValues(initialValues);
      setErrors({});
      setFormError(null);
      setSubmitted(false);
      setSaving(false);
    }
  }

  const onChange = (name: string, value: unknown) => {
    setValues((prev) => {
      let next = { ...prev, [name]: value } as V;
      const derived = fields.find((f) => f.name === name)?.onValueChange?.(value, next);
      if (derived) next = { ...next, ...derived };
      if (submitted) setErrors(validateValues(fields, next, mode));
      else setErrors((e) => (e[name] ? { ...e, [name]: '' } : e));
      return next;
    });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setFormError(null);
    const found = validateValues(fields, values, mode);
    setErrors(found);
    const formProblem = validateForm?.(values, mode, found) ?? null;
    if (formProblem) setFormError(formProblem);
    if (formProblem || Object.values(found).some(Boolean)) return;
    setSaving(true);
    try {
      await onSubmit(values);
    } catch (err) {
      if (isApiError(err)) {
        const known = new Set(fields.map((f) => f.name as string));
        const fieldErrors = Object.fromEntries(Object.entries(err.fieldErrors ?? {}).filter(([k]) => known.has(k)));
        setErrors(fieldErrors);
        if (!Object.keys(fieldErrors).length || err.status !== 422) setFormError(err.message);
      } else setFormError('Saving failed. Please try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} fullWidth maxWidth={maxWidth} fullScreen={fullScreen} aria-labelledby={titleId}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: fullScreen ? '100%' : undefined }}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent dividers>
          {formError && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {formError}
            </Alert>
          )}
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(12, 1fr)', columnGap: 2, rowGap: 1 }}>
            {fields
              .filter((f) => !isHidden(f, mode, values))
              .map((f) => (
                <Fragment key={f.name}>
                  {f.section && (
                    <Typography component="h3" variant="subtitle2" sx={{ gridColumn: 'span 12', fontWeight: 700, mt: 1, pt: 1, borderTop: 1, borderColor: 'divider' }}>
                      {f.section}
                    </Typography>
                  )}
                  <Box sx={{ gridColumn: { xs: 'span 12', sm: `span ${f.width ?? 12}` }, pt: 0.5 }}>
                    <FormField field={f} values={values} mode={mode} error={errors[f.name] || undefined} disabled={saving || (f.disabled?.(mode, values) ?? false)} onChange={onChange} />
                  </Box>
                </Fragment>
              ))}
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 1.5 }}>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? 'Saving…' : (submitLabel ?? (mode === 'create' ? 'Create' : 'Save changes'))}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
