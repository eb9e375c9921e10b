import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { PaymentDialog } from './PaymentsPage';
import { followedApply } from './paymentApply';
import type { Invoice } from './invoicesApi';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown) => json({ status_code: 200, message: 'ok', data });

const invoice = {
  id: 7,
  invoice_no: 'INV-000007',
  balance: '1687.98',
  customer: { id: 3, customer_name: 'Bayou City Builders' },
} as unknown as Invoice;

afterEach(() => vi.unstubAllGlobals());

describe('the Apply amount of a payment recorded from an invoice', () => {
  it('is what was received, up to the open balance', () => {
    expect(followedApply('1000', '1687.98')).toBe('1000');
    expect(followedApply('1000.5', '1687.98')).toBe('1000.5');
    expect(followedApply('2000', '1687.98')).toBe('1687.98');
    expect(followedApply('', '1687.98')).toBe('');
    expect(followedApply('-5', '1687.98')).toBe('');
  });

  it('follows Amount received until the user edits Apply', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
        if (url.pathname === '/api/invoice') return ok({ items: [{ id: 7, invoice_no: 'INV-000007', balance: '1687.98', due_date: '2026-12-20', is_overdue: false }], total: 1, page: 1, size: 100, pages: 1 });
        return ok([]);
      }),
    );
    renderWithProviders(<PaymentDialog customerId={3} invoice={invoice} onClose={() => {}} />);
    const received = screen.getByLabelText('Amount received');
    const apply = await screen.findByLabelText('Apply to INV-000007');
    expect(apply).toHaveValue(1687.98);
    fireEvent.change(received, { target: { value: '1000.00' } });
    expect(apply).toHaveValue(1000);
    await waitFor(() => expect(screen.getByText('The whole payment is applied.')).toBeInTheDocument());
    // Once the user types an Apply amount, it is theirs: a new amount received leaves it.
    fireEvent.change(apply, { target: { value: '400' } });
    fireEvent.change(received, { target: { value: '900' } });
    expect(apply).toHaveValue(400);
    expect(screen.getByText("$500.00 will be kept as the customer's credit.")).toBeInTheDocument();
  });
});
