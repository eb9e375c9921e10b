import type { ColumnDef } from './types';
import { toText } from '@/lib/text';

/** RFC 4180 cell: quoted when it holds a comma, quote or line break; formula-leading cells defused. */
export function csvCell(value: unknown): string {
  let text = toText(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function columnValue<T>(col: ColumnDef<T>, row: T): unknown {
  if (col.value) return col.value(row);
  return (row as Record<string, unknown>)[col.field];
}

export function toCsv<T>(columns: readonly ColumnDef<T>[], rows: readonly T[]): string {
  const header = columns.map((c) => csvCell(c.headerName)).join(',');
  const lines = rows.map((r) => columns.map((c) => csvCell(columnValue(c, r))).join(','));
  return [header, ...lines].join('\r\n') + '\r\n';
}

export function downloadCsv(filename: string, csv: string | Blob): void {
  const blob = typeof csv === 'string' ? new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' }) : csv;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename.endsWith('.csv') ? filename : `${filename}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
