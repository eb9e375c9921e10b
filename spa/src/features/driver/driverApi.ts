/** The driver portal's calls (`/api/driver-portal`): plain promises, so the offline queue can run
 * them outside React. Types are read off the generated schema. */
import { apiRequest } from '@/lib/api/http';
import type { ApiBody, ApiData } from '@/lib/api/types';

export type TodayData = ApiData<'/api/driver-portal/todays-orders', 'get'>;
export type Stop = TodayData['orders'][number];
export type StopLine = Stop['lines'][number];
export type SummaryData = ApiData<'/api/driver-portal/daily-summary', 'get'>;
export type ActionIn = ApiBody<'/api/driver-portal/actions', 'post'>['actions'][number];
export type ActionResult = ApiData<'/api/driver-portal/actions', 'post'>['results'][number];
export type ProofRole = 'signature' | 'photo';

interface Envelope<T> {
  data: T;
}

export async function fetchToday(truckIds: (string | number)[], date?: string): Promise<TodayData> {
  const params: Record<string, string> = { truck_ids: truckIds.join(',') };
  if (date) params.date = date;
  const res = await apiRequest<Envelope<TodayData>>('/driver-portal/todays-orders', { params });
  return res.message.data;
}

export async function fetchSummary(date?: string): Promise<SummaryData> {
  const res = await apiRequest<Envelope<SummaryData>>('/driver-portal/daily-summary', { params: date ? { date } : {} });
  return res.message.data;
}

export async function sendActions(actions: ActionIn[]): Promise<ActionResult[]> {
  const res = await apiRequest<Envelope<{ results: ActionResult[] }>>('/driver-portal/actions', { method: 'POST', body: { actions } });
  return res.message.data.results;
}

export async function uploadProof(file: { bytes: ArrayBuffer; type: string; name: string }, role: ProofRole): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  form.append('kind', role);
  const res = await apiRequest<Envelope<{ file_key: string }>>('/driver-portal/proof-files', { method: 'POST', body: form });
  return res.message.data.file_key;
}
