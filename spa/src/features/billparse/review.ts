import type { ParsedDetail, ReviewIn } from './billparseApi';

/** Where a value was read: its page (1-based) and box in PDF points from the page's top-left. */
export interface Place {
  page: number;
  bbox: [number, number, number, number];
}

export interface Read {
  confidence: number;
  place: Place | null;
  raw: string;
}

export interface LineDraft {
  product_id: number | null;
  description: string;
  gross: string;
  net: string;
  unit_price: string;
  amount: string;
  bol: string;
  read: Record<string, Read>;
}

export interface TaxDraft {
  name: string;
  amount: string;
  read: Record<string, Read>;
}

export interface Draft {
  supplier_id: number | null;
  bill_number: string;
  bill_date: string;
  due_date: string;
  terminal_id: number | null;
  bol_numbers: string;
  total: string;
  lines: LineDraft[];
  taxes: TaxDraft[];
  read: Record<string, Read>;
  /** Why the bill may differ from the document's total (sent only when lines + taxes ≠ total). */
  override_reason: string;
}

interface FieldJson {
  value?: unknown;
  confidence?: number;
  page?: number | null;
  bbox?: number[] | null;
  raw?: string;
}

type Json = Record<string, unknown>;

function readOf(f: FieldJson | undefined): Read {
  const place =
    f && f.page && Array.isArray(f.bbox) && f.bbox.length === 4
      ? { page: f.page, bbox: f.bbox as [number, number, number, number] }
      : null;
  return { confidence: f?.confidence ?? 0, place, raw: f?.raw ?? '' };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** The form's starting point: what the parser read, with the user's saved review over it. */
export function draftFromDetail(detail: ParsedDetail): Draft {
  const result = (detail.result ?? {});
  const fields = (result.fields ?? {}) as Record<string, FieldJson>;
  const lines = (result.lines ?? []) as Record<string, FieldJson>[];
  const taxes = (result.taxes ?? []) as Record<string, FieldJson>[];
  const read: Record<string, Read> = {};
  for (const name of Object.keys(fields)) read[name] = readOf(fields[name]);
  const bols = fields.bol_numbers?.value;
  const draft: Draft = {
    supplier_id: num(fields.supplier?.value),
    bill_number: str(fields.bill_number?.value),
    bill_date: str(fields.bill_date?.value),
    due_date: str(fields.due_date?.value),
    terminal_id: num(fields.terminal?.value),
    bol_numbers: Array.isArray(bols) ? bols.join(', ') : '',
    total: str(fields.total?.value),
    lines: lines.map((ln) => ({
      product_id: num(ln.product?.value),
      description: str(ln.description?.value),
      gross: str(ln.gross?.value),
      net: str(ln.net?.value),
      unit_price: str(ln.unit_price?.value),
      amount: str(ln.amount?.value),
      bol: str(ln.bol?.value),
      read: Object.fromEntries(['product', 'description', 'gross', 'net', 'unit_price', 'amount'].map((k) => [k, readOf(ln[k])])),
    })),
    taxes: taxes.map((t) => ({
      name: str(t.description?.value),
      amount: str(t.amount?.value),
      read: { name: readOf(t.description), amount: readOf(t.amount) },
    })),
    read,
    override_reason: '',
  };
  const review = (detail.review ?? {});
  if (Object.keys(review).length) {
    const r = review as Partial<ReviewIn> & Json;
    draft.supplier_id = (r.supplier_id as number | null) ?? null;
    draft.bill_number = str(r.bill_number);
    draft.bill_date = str(r.bill_date);
    draft.due_date = str(r.due_date);
    draft.terminal_id = (r.terminal_id as number | null) ?? null;
    draft.bol_numbers = Array.isArray(r.bol_numbers) ? r.bol_numbers.join(', ') : '';
    draft.total = str(r.total);
    draft.override_reason = str(r.total_override_reason);
    const rl = (r.lines ?? []) as Json[];
    draft.lines = rl.map((ln, i) => ({
      product_id: (ln.product_id as number | null) ?? null,
      description: str(ln.description),
      gross: str(ln.gross),
      net: str(ln.net),
      unit_price: str(ln.unit_price),
      amount: str(ln.amount),
      bol: str(ln.bol),
      read: draft.lines[i]?.read ?? {},
    }));
    const rt = (r.taxes ?? []) as Json[];
    draft.taxes = rt.map((t, i) => ({ name: str(t.name), amount: str(t.amount), read: draft.taxes[i]?.read ?? {} }));
  }
  return draft;
}

const dec = (s: string): string | null => {
  const t = s.replace(/[$,\s]/g, '');
  return t === '' ? null : t;
};

/** What the API takes: the reviewed draft (numbers as decimal strings, empty = none). */
export function toReviewIn(d: Draft, purchaseOrderId?: number | null): ReviewIn {
  return {
    supplier_id: d.supplier_id,
    bill_number: d.bill_number.trim(),
    bill_date: d.bill_date || null,
    due_date: d.due_date || null,
    terminal_id: d.terminal_id,
    bol_numbers: d.bol_numbers
      .split(/[\s,;]+/)
      .map((s) => s.trim())
      .filter(Boolean),
    total: dec(d.total),
    lines: d.lines.map((ln) => ({
      product_id: ln.product_id,
      description: ln.description,
      gross: dec(ln.gross),
      net: dec(ln.net),
      unit_price: dec(ln.unit_price),
      amount: dec(ln.amount),
      bol: ln.bol,
    })),
    taxes: d.taxes.filter((t) => t.name.trim()).map((t) => ({ name: t.name.trim(), amount: dec(t.amount) ?? '0' })),
    purchase_order_id: purchaseOrderId ?? null,
    total_override_reason: totalsAgree(d) ? '' : d.override_reason.trim(),
  };
}

/** The document's total as typed (0 when blank or not a number). */
export function totalOf(d: Draft): number {
  return Number(d.total.replace(/[$,\s]/g, '')) || 0;
}

/** Lines + taxes add up to the document's total (to the cent). */
export function totalsAgree(d: Draft): boolean {
  return Math.round((sumOf(d) - totalOf(d)) * 100) === 0;
}

/** A field the user should check: read with a confidence under the mark (and not yet edited). */
export function isLow(read: Read | undefined, mark: number): boolean {
  return !!read && read.confidence < mark;
}

/** Lines + taxes, to compare with the total printed on the bill. */
export function sumOf(d: Draft): number {
  const n = (s: string) => Number(dec(s) ?? 0) || 0;
  return d.lines.reduce((a, ln) => a + n(ln.amount), 0) + d.taxes.reduce((a, t) => a + n(t.amount), 0);
}
