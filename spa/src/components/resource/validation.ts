import { emailProblem } from '@/lib/validation';
import type { FieldDef, FormMode } from './formTypes';

export type FormErrors = Record<string, string>;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

export function isRequired<V>(field: FieldDef<V>, mode: FormMode, values: V): boolean {
  return typeof field.required === 'function' ? field.required(mode, values) : !!field.required;
}

export function isHidden<V>(field: FieldDef<V>, mode: FormMode, values: V): boolean {
  return field.hidden ? field.hidden(mode, values) : false;
}

/** Client-side validation of a form described as data; returns a message per invalid field. */
export function validateValues<V>(fields: readonly FieldDef<V>[], values: V, mode: FormMode): FormErrors {
  const errors: FormErrors = {};
  const all = values as Record<string, unknown>;
  for (const field of fields) {
    if (isHidden(field, mode, values)) continue;
    const value = all[field.name];
    const label = field.label;
    if (isEmpty(value)) {
      if (isRequired(field, mode, values)) errors[field.name] = `${label} is required`;
      continue;
    }
    let problem: string | null = null;
    if (typeof value === 'string') {
      const text = field.type === 'password' ? value : value.trim();
      if (field.minLength && text.length < field.minLength) problem = `${label} must be at least ${field.minLength} characters`;
      else if (field.maxLength && text.length > field.maxLength) problem = `${label} must be at most ${field.maxLength} characters`;
      else if (field.type === 'email') problem = emailProblem(text);
      else if (field.pattern && !field.pattern.regex.test(text)) problem = field.pattern.message;
    }
    if (!problem && field.type === 'number') {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) problem = `${label} must be a number`;
      else if (field.min !== undefined && n < field.min) problem = `${label} must be at least ${field.min}`;
      else if (field.max !== undefined && n > field.max) problem = `${label} must be at most ${field.max}`;
    }
    if (!problem && field.validate) problem = field.validate(value, values, mode);
    if (problem) errors[field.name] = problem;
  }
  return errors;
}
