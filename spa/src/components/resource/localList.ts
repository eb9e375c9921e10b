import { columnValue } from './csv';
import type { ActiveFilter, ColumnDef } from './types';
import { toText } from '@/lib/text';

/** Client-side search, filter and sort for lists the server answers whole ('all' lists). */
export function applyLocal<T>(
  rows: readonly T[],
  columns: readonly ColumnDef<T>[],
  opts: { search?: string; filter?: ActiveFilter | null; sortField?: string; order?: 'asc' | 'desc' },
): T[] {
  let out = [...rows];
  const term = opts.search?.trim().toLowerCase();
  if (term) {
    out = out.filter((r) => columns.some((c) => toText(columnValue(c, r)).toLowerCase().includes(term)));
  }
  const f = opts.filter;
  if (f) {
    const col = columns.find((c) => c.field === f.field);
    const get = (r: T) => (col ? columnValue(col, r) : (r as Record<string, unknown>)[f.field]);
    out = out.filter((r) => matches(get(r), f));
  }
  if (opts.sortField) {
    const col = columns.find((c) => (c.sortField ?? c.field) === opts.sortField);
    const dir = opts.order === 'desc' ? -1 : 1;
    if (col) {
      out.sort((a, b) => {
        const x = columnValue(col, a);
        const y = columnValue(col, b);
        if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
        return toText(x).localeCompare(toText(y), undefined, { numeric: true, sensitivity: 'base' }) * dir;
      });
    }
  }
  return out;
}

export function matches(raw: unknown, f: ActiveFilter): boolean {
  const text = toText(raw).toLowerCase();
  const v = f.value.toLowerCase();
  const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);
  const cmp = (a: string, b: string) => {
    const x = num(a);
    const y = num(b);
    return typeof x === 'number' && typeof y === 'number' ? x - y : a.localeCompare(b);
  };
  switch (f.operator) {
    case 'contains':
      return text.includes(v);
    case 'equals':
      return text === v;
    case 'startsWith':
      return text.startsWith(v);
    case 'endsWith':
      return text.endsWith(v);
    case 'greaterThan':
      return cmp(text, v) > 0;
    case 'lessThan':
      return cmp(text, v) < 0;
    case 'between': {
      const [lo, hi] = v.split(',');
      return cmp(text, lo ?? '') >= 0 && cmp(text, hi ?? '') <= 0;
    }
  }
}
