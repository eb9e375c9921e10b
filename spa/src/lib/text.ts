/**
 * The text of a value for display, search and CSV: '' for null/undefined, strings as they are,
 * numbers and booleans printed, objects as JSON (never '[object Object]').
 */
export function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return '';
}
