import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { MSG_POST_FAILED, MSG_POSTED, PostToAccountingButton } from './PostToAccountingButton';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  toast.error.mockReset();
  toast.success.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

describe('Post to QuickBooks', () => {
  it("posts the invoice and shows the spec's success toast", async () => {
    const fetch = vi.fn(async () => json({ status_code: 200, message: 'Posted to QuickBooks Online successfully', data: null }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<PostToAccountingButton invoiceId={42} />);
    fireEvent.click(screen.getByRole('button', { name: 'Post to QuickBooks' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Posted to QuickBooks Online successfully'));
    expect(MSG_POSTED).toBe('Posted to QuickBooks Online successfully');
    const [url, init] = (fetch.mock.calls as unknown as [string, RequestInit][])[0];
    expect(String(url)).toContain('/api/quickbook/invoice/42/push');
    expect(init.method).toBe('POST');
  });

  it("shows the spec's failure toast with the server's reason", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ detail: 'Failed to post to QuickBooks Online: map the product Clear Diesel to a QuickBooks item first.' }, 409)));
    renderWithProviders(<PostToAccountingButton invoiceId={42} />);
    fireEvent.click(screen.getByRole('button', { name: 'Post to QuickBooks' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(MSG_POST_FAILED).toBe('Failed to post to QuickBooks Online');
    renderWithProviders(<>{toast.error.mock.calls[0][0]}</>);
    expect(screen.getByText(/Failed to post to QuickBooks Online/)).toHaveTextContent(/^Failed to post to QuickBooks Onlinemap the product Clear Diesel to a QuickBooks item first\.$/);
    expect(toast.success).not.toHaveBeenCalled();
  });
});
