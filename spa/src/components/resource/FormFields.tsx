import Autocomplete from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { Suspense, lazy } from 'react';
import type { FieldDef, FormMode, OptionsState } from './formTypes';
import type { Option } from './types';
import { isRequired } from './validation';
import { toText } from '@/lib/text';

const DateField = lazy(() => import('./DateField'));

export interface FieldProps<V> {
  field: FieldDef<V>;
  values: V;
  mode: FormMode;
  error?: string;
  disabled: boolean;
  onChange: (name: string, value: unknown) => void;
}

const noOptions = (): OptionsState => ({ options: [] });

function useFieldOptions<V>(field: FieldDef<V>, values: V): OptionsState {
  const hook = field.useOptions ?? noOptions;
  const loaded = hook(values);
  return field.useOptions ? loaded : { options: field.options ?? [] };
}

function helper<V>(field: FieldDef<V>, mode: FormMode): string | undefined {
  return typeof field.helperText === 'function' ? field.helperText(mode) : field.helperText;
}

function SelectField<V>({ field, values, mode, error, disabled, onChange }: FieldProps<V>) {
  const { options, loading, error: loadError } = useFieldOptions(field, values);
  const value = (values as Record<string, unknown>)[field.name];
  const required = isRequired(field, mode, values);
  if (field.type === 'combobox') {
    // One value picked from a long list by typing (customers, products).
    const current = options.find((o) => o.value === value) ?? null;
    return (
      <Autocomplete<Option, false>
        options={options}
        loading={loading}
        disabled={disabled}
        value={current}
        onChange={(_, next) => onChange(field.name, next ? next.value : null)}
        isOptionEqualToValue={(a, b) => a.value === b.value}
        renderInput={(params) => (
          <TextField {...params} name={field.name} label={field.label} required={required} error={!!error || !!loadError} helperText={error ?? loadError ?? (loading ? 'Loading…' : helper(field, mode)) ?? ' '} />
        )}
      />
    );
  }
  if (field.type === 'multiselect') {
    const selected = Array.isArray(value) ? value : [];
    return (
      <Autocomplete<Option, true>
        multiple
        options={options}
        loading={loading}
        disabled={disabled}
        value={options.filter((o) => selected.includes(o.value))}
        onChange={(_, next) => onChange(field.name, next.map((o) => o.value))}
        isOptionEqualToValue={(a, b) => a.value === b.value}
        renderInput={(params) => (
          <TextField {...params} label={field.label} required={required} error={!!error || !!loadError} helperText={error ?? loadError ?? helper(field, mode) ?? ' '} />
        )}
      />
    );
  }
  return (
    <TextField
      select
      label={field.label}
      name={field.name}
      required={required}
      disabled={disabled || loading}
      value={toText(value)}
      onChange={(e) => {
        const raw = e.target.value;
        const match = options.find((o) => String(o.value) === raw);
        onChange(field.name, raw === '' ? null : (match?.value ?? raw));
      }}
      error={!!error || !!loadError}
      helperText={error ?? loadError ?? (loading ? 'Loading…' : helper(field, mode)) ?? ' '}
    >
      {!required && (
        <MenuItem value="">
          <em>None</em>
        </MenuItem>
      )}
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={String(o.value)}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function FormField<V>(props: FieldProps<V>) {
  const { field, values, mode, error, disabled, onChange } = props;
  const type = field.type ?? 'text';
  const value = (values as Record<string, unknown>)[field.name];
  const required = isRequired(field, mode, values);

  switch (type) {
    case 'select':
    case 'multiselect':
    case 'combobox':
      return <SelectField {...props} />;
    case 'switch':
      return (
        <FormControlLabel
          control={<Switch name={field.name} checked={!!value} disabled={disabled} onChange={(e) => onChange(field.name, e.target.checked)} />}
          label={field.label}
        />
      );
    case 'date':
      return (
        <Suspense fallback={<TextField label={field.label} disabled value="" />}>
          <DateField label={field.label} value={(value as string | null) ?? null} required={required} disabled={disabled} error={error} helperText={helper(field, mode)} onChange={(v) => onChange(field.name, v)} />
        </Suspense>
      );
    case 'custom':
      return <>{field.render?.({ value, onChange: (v) => onChange(field.name, v), error, disabled, values, mode, label: field.label })}</>;
    default:
      return (
        <TextField
          label={field.label}
          name={field.name}
          type={type === 'textarea' ? 'text' : type}
          multiline={type === 'textarea'}
          minRows={type === 'textarea' ? 3 : undefined}
          required={required}
          disabled={disabled}
          placeholder={field.placeholder}
          autoComplete={field.autoComplete ?? (type === 'password' ? 'new-password' : undefined)}
          value={toText(value)}
          onChange={(e) => onChange(field.name, type === 'number' ? (e.target.value === '' ? null : Number(e.target.value)) : e.target.value)}
          error={!!error}
          helperText={error ?? helper(field, mode) ?? ' '}
          slotProps={{ htmlInput: { min: field.min, max: field.max, step: field.step, maxLength: field.maxLength } }}
        />
      );
  }
}
