import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import JobLogPage from './JobLogPage';
import { countsAsJobLogAnswer, type JobLogEntry } from './jobsApi';

const entry = (over: Partial<JobLogEntry>): JobLogEntry =>
  ({
    id: 1, kind: 'csv_import', actor: 'run_data_import', message: 'CSV import', status: 'succeeded', attempts: 1, error: '',
    document_type: 'data_import', document_id: 5, document_label: 'Customers import: customers.csv', document_path: '/customer',
    invoice_id: null, bill_id: null, started_by_id: 1, started_by_name: 'Ann Admin', can_retry: false, retry_of_id: null, logs: [],
    created: '2026-11-24T03:00:00Z', started_at: '2026-11-24T03:00:01Z', finished_at: '2026-11-24T03:00:42Z', updated: '2026-11-24T03:00:42Z',
    ...over,
  });

const page = (items: JobLogEntry[], statusCode = 200) => ({ status_code: statusCode, message: 'ok', data: { items, total: items.length, page: 1, size: 20, pages: 1 } });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function route(handlers: Record<string, () => Response>) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const key = Object.keys(handlers).find((k) => {
      const [m, path] = k.split(' ');
      return m === method && url.includes(path);
    });
    return key ? handlers[key]() : json({ detail: 'Not found' }, 404);
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('job log (spec: paged by 20, status_code 200 rule, "Failed to fetch job logs")', () => {
  it('counts an answer only when its body says status_code 200', () => {
    expect(countsAsJobLogAnswer({ status_code: 200, data: {} })).toBe(true);
    expect(countsAsJobLogAnswer({ status_code: 201, data: {} })).toBe(false);
    expect(countsAsJobLogAnswer({ data: {} })).toBe(false);
    expect(countsAsJobLogAnswer(null)).toBe(false);
  });

  it('lists jobs with their document, who started them and why one failed, and retries it', async () => {
    const failed = entry({ id: 2, status: 'failed', can_retry: true, error: 'No progress for 10 minutes: the worker running it stopped.' });
    const fetch = route({
      'GET /api/job-log/kinds': () => json({ status_code: 200, message: 'ok', data: [{ kind: 'csv_import', label: 'CSV import', retryable: true }] }),
      'GET /api/job-log?': () => json(page([failed, entry({})])),
      'POST /api/job-log/2/retry': () => json({ status_code: 200, message: 'The job was queued again.', data: entry({ id: 3, status: 'queued', retry_of_id: 2 }) }),
    });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<JobLogPage />, { route: '/company-settings/job-log' });
    expect(await screen.findByText('No progress for 10 minutes: the worker running it stopped.')).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: 'Customers import: customers.csv' });
    expect(links[0]).toHaveAttribute('href', '/customer');
    expect(screen.getAllByText(/by Ann Admin/)).toHaveLength(2);
    expect(screen.getByText('2 jobs')).toBeInTheDocument();
    const listCall = fetch.mock.calls.find(([u]) => String(u instanceof Request ? u.url : u).includes('/api/job-log?'));
    expect(String(listCall?.[0] instanceof Request ? listCall[0].url : listCall?.[0])).toContain('size=20');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([u, i]) => String(u instanceof Request ? u.url : u).includes('/api/job-log/2/retry') && ((i?.method ?? (u instanceof Request ? u.method : '')) === 'POST'))).toBe(true),
    );
  });

  it('says "Failed to fetch job logs" when the answer is not a status_code 200 body', async () => {
    vi.stubGlobal(
      'fetch',
      route({
        'GET /api/job-log/kinds': () => json({ status_code: 200, message: 'ok', data: [] }),
        'GET /api/job-log?': () => json(page([entry({})], 500)),
      }),
    );
    renderWithProviders(<JobLogPage />, { route: '/company-settings/job-log' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch job logs');
    expect(screen.queryByText('Customers import: customers.csv')).not.toBeInTheDocument();
  });

  it('says "Failed to fetch job logs" when the server fails', async () => {
    vi.stubGlobal('fetch', route({ 'GET /api/job-log/kinds': () => json({ status_code: 200, message: 'ok', data: [] }), 'GET /api/job-log?': () => json({ detail: 'boom' }, 503) }));
    renderWithProviders(<JobLogPage />, { route: '/company-settings/job-log' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch job logs');
  });
});
