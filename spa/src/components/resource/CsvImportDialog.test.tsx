import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { CsvImportDialog } from './CsvImportDialog';
import type { DataImport } from './importApi';

const base: DataImport = {
  import_id: 7, resource: 'customer', file_name: 'customers.csv', status: 'invalid', total_rows: 3, processed: 3, valid_rows: 2, error_rows: 1, created_rows: 0,
  columns: ['name', 'account_number', 'status'], ignored_columns: ['fax'],
  errors: [{ row: 3, field: 'status', message: "Input should be 'active', 'on_hold', 'credit_hold' or 'inactive'" }],
  sample: [{ row: '2', name: 'Bayou Farms', account_number: 'BF1', status: 'active' }, { row: '4', name: 'Red River Co', account_number: 'RR1', status: 'on_hold' }],
  message: '1 of 3 rows have errors. Fix them and upload the file again; nothing has been imported.', created_at: '2026-11-22T00:00:00Z', finished_at: null,
};

const answer = (status: number, data: unknown) =>
  new Response(JSON.stringify(status < 300 ? { status_code: status, message: 'ok', data } : data), { status, headers: { 'Content-Type': 'application/json' } });

function pick(file = new File(['name\nA\n'], 'customers.csv', { type: 'text/csv' })) {
  fireEvent.change(screen.getByTestId('csv-file-input'), { target: { files: [file] } });
}

afterEach(() => vi.unstubAllGlobals());

describe('CSV import dialog', () => {
  it('previews per-row errors and writes nothing', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(answer(200, base));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<CsvImportDialog open importPath="/customer/customers/import" plural="customers" onClose={() => {}} />);
    expect(screen.getByText(/nothing is written until you confirm/)).toBeInTheDocument();
    pick();
    const errors = await screen.findByRole('table', { name: 'Rows with errors' });
    const row = within(errors).getAllByRole('row')[1];
    expect(row).toHaveTextContent('3');
    expect(row).toHaveTextContent('status');
    expect(row).toHaveTextContent("Input should be 'active', 'on_hold', 'credit_hold' or 'inactive'");
    expect(screen.getByRole('status')).toHaveTextContent('nothing has been imported');
    expect(screen.getByText('1 with errors')).toBeInTheDocument();
    expect(screen.getByText('Columns not used: fax')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'First rows to import' })).getByText('Bayou Farms')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import 2 customers' })).toBeDisabled();
    // The upload was a multipart POST to the import path; nothing else was called.
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(String(url)).toMatch(/\/api\/customer\/customers\/import$/);
    expect(init.method).toBe('POST');
    expect(init.body).toBeInstanceOf(FormData);
  });

  it('shows a progress bar while the worker checks and writes a large file, then the result', async () => {
    const onImported = vi.fn();
    const running = { ...base, total_rows: 450, errors: [], error_rows: 0, valid_rows: 0, sample: [] };
    // The first progress poll answers only when the test says so, so the bar can be looked at.
    let release: () => void = () => {};
    let releaseReady: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const heldReady = new Promise<void>((r) => (releaseReady = r));
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(answer(202, { ...running, status: 'validating', processed: 0 }))
      .mockImplementationOnce(async () => {
        await held;
        return answer(200, { ...running, status: 'validating', processed: 200 });
      })
      .mockImplementationOnce(async () => {
        await heldReady;
        return answer(200, { ...base, status: 'ready', total_rows: 450, processed: 450, errors: [], error_rows: 0, valid_rows: 450, ignored_columns: [], message: 'All 450 rows are valid.' });
      })
      .mockResolvedValueOnce(answer(202, { ...running, status: 'importing', processed: 0, valid_rows: 450 }))
      .mockResolvedValueOnce(answer(200, { ...base, status: 'completed', total_rows: 450, processed: 450, errors: [], error_rows: 0, valid_rows: 450, created_rows: 450 }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<CsvImportDialog open importPath="/customer/customers/import" plural="customers" onClose={() => {}} onImported={onImported} pollMs={5} />);
    pick();
    const progress = await screen.findByTestId('import-progress');
    expect(progress).toHaveTextContent('Checking row 0 of 450');
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    release();
    await waitFor(() => expect(within(screen.getByTestId('import-progress')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '44'));
    expect(screen.getByTestId('import-progress')).toHaveTextContent('Checking row 200 of 450');
    releaseReady();
    const confirm = await screen.findByRole('button', { name: 'Import 450 customers' });
    expect(confirm).toBeEnabled();
    fireEvent.click(confirm);
    expect(await screen.findByText('Imported 450 customers.')).toBeInTheDocument();
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[3][0])).toMatch(/\/import\/7\/confirm$/);
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('says so when the worker makes no progress', async () => {
    const running = { ...base, status: 'validating', total_rows: 900, processed: 0, errors: [], error_rows: 0, valid_rows: 0, sample: [] };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(answer(202, running)).mockImplementation(async () => answer(200, running)));
    renderWithProviders(<CsvImportDialog open importPath="/customer/customers/import" plural="customers" onClose={() => {}} pollMs={5} stallMs={30} />);
    pick();
    expect(await screen.findByTestId('import-stalled')).toHaveTextContent(/background worker may be busy or stopped/);
  });

  it("shows the rows of a refused confirm (the server's 422)", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(answer(200, { ...base, status: 'ready', errors: [], error_rows: 0, valid_rows: 3, message: 'All 3 rows are valid.' }))
      .mockResolvedValueOnce(answer(422, { detail: 'Nothing was imported: 1 of 3 rows have errors.', errors: [{ row: 4, field: 'account_number', message: 'account_number: already used' }] }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<CsvImportDialog open importPath="/customer/customers/import" plural="customers" onClose={() => {}} />);
    pick();
    fireEvent.click(await screen.findByRole('button', { name: 'Import 3 customers' }));
    expect(await screen.findByTestId('import-error')).toHaveTextContent('Nothing was imported: 1 of 3 rows have errors.');
    expect(within(screen.getByRole('table', { name: 'Rows with errors' })).getByText('account_number: already used')).toBeInTheDocument();
  });
});
