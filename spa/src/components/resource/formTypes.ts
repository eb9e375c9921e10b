import type { ReactNode } from 'react';
import type { Option } from './types';

export type FormMode = 'create' | 'edit';

export type FieldType = 'text' | 'email' | 'password' | 'number' | 'textarea' | 'select' | 'multiselect' | 'combobox' | 'switch' | 'date' | 'custom';

export interface OptionsState {
  options: Option[];
  loading?: boolean;
  error?: string | null;
}

export interface CustomFieldProps<V> {
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  disabled: boolean;
  values: V;
  mode: FormMode;
  label: string;
}

/** One form field, described as data. */
export interface FieldDef<V> {
  name: Extract<keyof V, string>;
  label: string;
  type?: FieldType;
  required?: boolean | ((mode: FormMode, values: V) => boolean);
  hidden?: (mode: FormMode, values: V) => boolean;
  disabled?: (mode: FormMode, values: V) => boolean;
  helperText?: string | ((mode: FormMode) => string | undefined);
  placeholder?: string;
  autoComplete?: string;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number;
  pattern?: { regex: RegExp; message: string };
  validate?: (value: unknown, values: V, mode: FormMode) => string | null;
  /** Fixed options for select / multiselect. */
  options?: Option[];
  /** A hook that loads options (called by the field's own component, so the rules of hooks hold). */
  useOptions?: (values: V) => OptionsState;
  /** Grid columns out of 12 at ≥ sm (always 12 on phones). */
  width?: 12 | 8 | 6 | 4;
  /** For type 'custom'. */
  render?: (props: CustomFieldProps<V>) => ReactNode;
  /** A heading shown above this field (starts a section of the form). */
  section?: string;
  /** Values to change along with this one (e.g. clear the city when the state changes). */
  onValueChange?: (value: unknown, values: V) => Partial<V>;
}
