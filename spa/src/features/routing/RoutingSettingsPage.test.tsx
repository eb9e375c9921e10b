import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jwtExpiringIn } from '@/testing/jwt';
import { renderWithProviders } from '@/testing/render';
import RoutingSettingsPage from './RoutingSettingsPage';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));

const settings = {
  circuity: '1.30', speed_mph: '35.0', osrm_url: '', map_tile_url: '', map_style_url: '', map_attribution: '', service_fixed_minutes: 15, pump_gpm: '60.0',
  hours_of_service: 'us_property', max_duty_hours: '14.00', default_cost_per_mile: '2.50', default_cost_per_hour: '35.00', default_seconds: 30,
  keep_full_stops: true, keep_full_days: 3, keep_full_value_per_gallon: '0.150', saved: false, map_allowed_sites: ['https://*.maptiles.example'],
};
const json = (b: unknown, status = 200) => new Response(JSON.stringify(b), { status, headers: { 'Content-Type': 'application/json' } });
const puts: unknown[] = [];

afterEach(() => vi.unstubAllGlobals());

/** The settings page's API: `onPut` answers a save (its body parsed), the rest is fixed. */
function stubApi(onPut: (body: unknown) => Response) {
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input as Request;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : req.url;
    const method = (init?.method ?? req.method ?? 'GET').toUpperCase();
    if (url.includes('/api/routing-settings') && method === 'PUT') {
      return onPut(JSON.parse(typeof init?.body === 'string' ? init.body : await req.clone().text()));
    }
    if (url.includes('/api/routing-settings')) return json({ status_code: 200, message: 'ok', data: settings });
    if (url.includes('/api/role/current-user')) return json({ status_code: 200, message: 'ok', data: { permissions: [], role: { grants_all: true } } });
    if (url.includes('/api/truck-routing') || url.includes('/api/driver-shift')) return json({ status_code: 200, message: 'ok', data: { items: [], total: 0, page: 1, size: 25, pages: 0 } });
    return json({ status_code: 200, message: 'ok', data: [] });
  }));
}

describe('route planning settings', () => {
  it('saves every setting as numbers, with the changed one, and refuses a bad OSRM address', { timeout: 40_000 }, async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    puts.length = 0;
    stubApi((body) => {
      puts.push(body);
      return json({ status_code: 200, message: 'Routing settings saved successfully', data: { ...settings, ...(body as object), saved: true } });
    });
    renderWithProviders(<RoutingSettingsPage />, { route: '/company-settings/routing' });
    expect(await screen.findByText('Defaults (never saved)', {}, { timeout: 8000 })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Circuity factor/), { target: { value: '1.45' } });
    fireEvent.change(screen.getByLabelText('OSRM server'), { target: { value: 'osrm.local' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter an http(s) address, or leave it empty')).toBeInTheDocument();
    expect(puts).toEqual([]);
    fireEvent.change(screen.getByLabelText('OSRM server'), { target: { value: 'http://osrm.local:5000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      circuity: 1.45, speed_mph: 35, osrm_url: 'http://osrm.local:5000', map_tile_url: '', map_style_url: '', map_attribution: '', service_fixed_minutes: 15, pump_gpm: 60,
      hours_of_service: 'us_property', max_duty_hours: 14, default_cost_per_mile: 2.5, default_cost_per_hour: 35, default_seconds: 30,
      keep_full_stops: true, keep_full_days: 3, keep_full_value_per_gallon: 0.15,
    });
  });

  it('shows the server\'s refusal of a map URL on that field and in a toast', { timeout: 40_000 }, async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    const detail = 'Browsers would refuse the map style URL: its site https://tiles.other.example is not allowed by this server\'s security policy (CSP connect-src).';
    stubApi(() => json({ detail, errors: [{ loc: ['body', 'payload', 'map_style_url'], msg: 'https://tiles.other.example is not allowed by this server\'s security policy (CSP_CONNECT_SRC)', type: 'csp_blocked' }] }, 422));
    renderWithProviders(<RoutingSettingsPage />, { route: '/company-settings/routing' });
    expect(await screen.findByText('Defaults (never saved)', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('Allowed sites: this one, https://*.maptiles.example')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Map style URL (MapLibre)'), { target: { value: 'https://tiles.other.example/style.json' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(/is not allowed by this server's security policy \(CSP_CONNECT_SRC\)/)).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(detail);
    expect(screen.getByLabelText('Map style URL (MapLibre)')).toHaveAttribute('aria-invalid', 'true');
  });
});
