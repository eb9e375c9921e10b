// Small formatters the inbox screens share.
import dayjs from 'dayjs';
import { isApiError } from '@/lib/api/errors';

export const recordText = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
export const errorText = (e: unknown, fallback: string) => (isApiError(e) ? e.message : fallback);
export const when = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY HH:mm') : '—');
