import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateDeliveryTickets } from './DeliveryTicketButtons';

describe('ticket generation', () => {
  afterEach(() => vi.unstubAllGlobals());
  it("shows the spec's message with the server's status", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ detail: 'cancelled' }), { status: 409 })));
    await expect(generateDeliveryTickets(7, true)).rejects.toThrow('Server responded with status: 409');
  });
  it('answers the tickets and asks for the split', async () => {
    const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify({ status_code: 200, message: 'ok', data: [{ id: 3, number: 'DT-000003' }] }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await generateDeliveryTickets(7, true)).toEqual([{ id: 3, number: 'DT-000003' }]);
    const url = String(fetchMock.mock.calls[0][0]);
    expect(url).toContain('/api/delivery-ticket/generate');
    expect(url).toContain('sales_order_id=7');
    expect(url).toContain('split_by_po=true');
  });
});
