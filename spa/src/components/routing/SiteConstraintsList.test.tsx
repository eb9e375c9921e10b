import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jwtExpiringIn } from '@/testing/jwt';
import { renderWithProviders } from '@/testing/render';
import { SiteConstraintsList, skillsOf } from './SiteConstraintsList';

const json = (b: unknown, status = 200) => new Response(JSON.stringify(b), { status, headers: { 'Content-Type': 'application/json' } });
const page = (items: unknown[]) => ({ status_code: 200, message: 'ok', data: { items, total: items.length, page: 1, size: 25, pages: 1 } });
const row = {
  id: 5, ship_to_id: 31, ship_to_name: 'North Yard', customer_id: 3, customer_name: 'Acme Farms', max_truck_gallons: 3000, skills: ['long hose'], extra_service_minutes: 10,
  created_at: '2026-12-01T10:00:00Z', updated_at: '2026-12-01T10:00:00Z',
};

interface Call { method: string; url: string; body: unknown }
let calls: Call[] = [];
/** What the server answers a POST /site-constraint (the test sets it). */
let onCreate: (body: Record<string, unknown>) => Response;
let permissions: { permissions: string[]; role: { grants_all: boolean } };

beforeEach(() => {
  window.localStorage.setItem('token', jwtExpiringIn(3600));
  calls = [];
  permissions = { permissions: [], role: { grants_all: true } };
  onCreate = (body) => json({ status_code: 201, message: 'Site constraint created successfully', data: { ...row, id: 6, ...body, ship_to_name: 'South Gate' } }, 201);
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input as Request;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : req.url;
    const method = (init?.method ?? req.method ?? 'GET').toUpperCase();
    const text = typeof init?.body === 'string' ? init.body : method === 'GET' ? '' : await req.clone().text();
    const body: unknown = text ? JSON.parse(text) : null;
    calls.push({ method, url, body });
    if (url.includes('/api/role/current-user')) return json({ status_code: 200, message: 'ok', data: permissions });
    if (url.includes('/api/site-constraint') && method === 'POST') return onCreate(body as Record<string, unknown>);
    if (url.includes('/api/site-constraint')) return json(page([row]));
    if (url.includes('/api/customer/customers/all')) return json({ status_code: 200, message: 'ok', data: [{ id: 3, name: 'Acme Farms', account_number: 'C-003' }, { id: 4, name: 'Bolt Mining', account_number: 'C-004' }] });
    if (url.includes('/api/customer-ship-to')) return json(page([{ id: 31, name: 'North Yard', customer_id: 3 }, { id: 32, name: 'South Gate', customer_id: 3 }]));
    return json({ status_code: 200, message: 'ok', data: [] });
  }));
});
afterEach(() => vi.unstubAllGlobals());

async function openForm() {
  fireEvent.click(await screen.findByRole('button', { name: /New site constraint/ }));
  return screen.findByRole('dialog', { name: 'New site constraint' });
}
async function pick(dialog: HTMLElement, label: RegExp, option: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}
const posts = () => calls.filter((c) => c.method === 'POST' && c.url.includes('/api/site-constraint'));

describe('the sites screen (site constraints)', () => {
  it('lists every customer\'s sites and creates one: customer, then one of its ship-tos, with gallons, skills and minutes', { timeout: 40_000 }, async () => {
    renderWithProviders(<SiteConstraintsList />, { route: '/company-settings/routing' });
    expect(await screen.findByText('North Yard', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('Acme Farms')).toBeInTheDocument();
    expect(screen.getByText('3,000 gal')).toBeInTheDocument();
    const dialog = await openForm();
    expect(within(dialog).getByRole('combobox', { name: /Ship-to/ })).toBeDisabled();
    await pick(dialog, /Customer/, 'Acme Farms (C-003)');
    await pick(dialog, /Ship-to/, 'South Gate');
    fireEvent.change(within(dialog).getByLabelText(/Largest truck/), { target: { value: '2500' } });
    fireEvent.change(within(dialog).getByLabelText(/Skills the truck needs/), { target: { value: 'Long hose, pump, long hose' } });
    fireEvent.change(within(dialog).getByLabelText(/Extra minutes/), { target: { value: '15' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toEqual({ ship_to_id: 32, max_truck_gallons: 2500, skills: ['long hose', 'pump'], extra_service_minutes: 15 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server\'s refusals in the form: a second set for the same ship-to, a field the server refuses', { timeout: 40_000 }, async () => {
    onCreate = () => json({ status_code: 409, detail: 'Ship-to North Yard already has its site constraints: edit them instead.' }, 409);
    renderWithProviders(<SiteConstraintsList />, { route: '/company-settings/routing' });
    const dialog = await openForm();
    await pick(dialog, /Customer/, 'Acme Farms (C-003)');
    await pick(dialog, /Ship-to/, 'North Yard');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Ship-to North Yard already has its site constraints: edit them instead.');

    onCreate = () => json({ status_code: 422, detail: 'max_truck_gallons: Input should be greater than or equal to 1', errors: [{ loc: ['body', 'payload', 'max_truck_gallons'], msg: 'Input should be greater than or equal to 1' }] }, 422);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Input should be greater than or equal to 1')).toBeInTheDocument();
    expect(posts()).toHaveLength(2);
  });

  it('checks gallons and skills before sending', { timeout: 40_000 }, async () => {
    renderWithProviders(<SiteConstraintsList />, { route: '/company-settings/routing' });
    const dialog = await openForm();
    await pick(dialog, /Customer/, 'Acme Farms (C-003)');
    await pick(dialog, /Ship-to/, 'North Yard');
    fireEvent.change(within(dialog).getByLabelText(/Largest truck/), { target: { value: '-5' } });
    fireEvent.change(within(dialog).getByLabelText(/Skills the truck needs/), { target: { value: 'hose/150' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(/"hose\/150": letters, digits/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Largest truck/)).toHaveAttribute('aria-invalid', 'true');
    expect(posts()).toEqual([]);
    expect(skillsOf(' Long Hose ,,pump, long hose')).toEqual(['long hose', 'pump']);
  });

  it('on the customer page: only its sites, its ship-tos offered without asking for the customer', { timeout: 40_000 }, async () => {
    renderWithProviders(<SiteConstraintsList customer={{ id: 3, name: 'Acme Farms' }} title="Delivery site constraints" />, { route: '/customers/3' });
    expect(await screen.findByText('North Yard', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(calls.find((c) => c.url.includes('/api/site-constraint'))!.url).toContain('customer_id=3');
    const dialog = await openForm();
    expect(within(dialog).queryByRole('combobox', { name: /Customer/ })).not.toBeInTheDocument();
    await pick(dialog, /Ship-to/, 'South Gate');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toEqual({ ship_to_id: 32, max_truck_gallons: null, skills: [], extra_service_minutes: 0 });
  });

  it('is hidden without site_constraint.view, and read-only with view alone', { timeout: 40_000 }, async () => {
    permissions = { permissions: ['customer.view'], role: { grants_all: false } };
    const { unmount } = renderWithProviders(<SiteConstraintsList />, { route: '/company-settings/routing' });
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/role/current-user'))).toBe(true));
    await waitFor(() => expect(screen.queryByText('Sites')).not.toBeInTheDocument());
    unmount();
    permissions = { permissions: ['site_constraint.view'], role: { grants_all: false } };
    renderWithProviders(<SiteConstraintsList />, { route: '/company-settings/routing' });
    expect(await screen.findByText('North Yard', {}, { timeout: 8000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: /New site constraint/ })).not.toBeInTheDocument());
  });
});
