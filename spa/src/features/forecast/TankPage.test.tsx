import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { jwtExpiringIn } from '@/testing/jwt';
import TankPage from './TankPage';
import type { TankForecast } from './types';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const tank: TankForecast = {
  tank: { id: 5, name: 'Barn tank', serial_number: 'SN-5', capacity: null, product_id: 1, product_name: 'Dyed Diesel', customer_id: 9, customer_name: 'Ada Farms', ship_to_id: null, ship_to_name: '' },
  settings: { asset_id: 5, program: 'keep_full', usage_model: 'calendar', usage_type: 'farm_diesel', max_fill_percent: '90.00', reorder_percent: null, reorder_gallons: '100.00', zone: { id: 2, code: 'GSO', name: 'Greensboro' }, k_factor_override: null, baseload_override: null, daily_rate_override: '12.500' },
  usable_gallons: null,
  reorder_gallons: null,
  level_gallons: null,
  level_percent: null,
  fit: null,
  projection: [],
  history: [],
  cannot_forecast: 'the tank has no capacity: set its capacity (gallons)',
  confidence: '',
  reason: '',
  open_order_id: null,
};

function server(onPut: (body: unknown) => void) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'PUT' && url.includes('/api/forecast/tank/5/settings')) {
      onPut(JSON.parse(init?.body as string));
      return json({ status_code: 200, message: 'Tank settings saved successfully', data: tank.settings });
    }
    if (url.includes('/api/forecast/tank/5')) return json({ status_code: 200, message: 'ok', data: tank });
    if (url.includes('/api/forecast/weather/zones/all')) return json({ status_code: 200, message: 'ok', data: [{ id: 2, code: 'GSO', name: 'Greensboro', station: '', latitude: null, longitude: null, is_active: true }] });
    return json({ detail: 'Not found' }, 404);
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('tank page', () => {
  it('says plainly why the tank cannot be forecast, and saves a setting with the others kept', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    const puts: unknown[] = [];
    vi.stubGlobal('fetch', server((b) => puts.push(b)));
    renderWithProviders(
      <Routes>
        <Route path="/forecast/tank/:assetId" element={<TankPage />} />
      </Routes>,
      { route: '/forecast/tank/5' },
    );
    const why = await screen.findByTestId('cannot-forecast');
    expect(why).toHaveTextContent('Cannot forecast this tank');
    expect(why).toHaveTextContent('The tank has no capacity: set its capacity (gallons)');

    const form = screen.getByRole('form', { name: 'Forecast settings' });
    fireEvent.change(within(form).getByLabelText('Max fill %'), { target: { value: '80' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      program: 'keep_full',
      usage_model: 'calendar',
      usage_type: 'farm_diesel',
      max_fill_percent: '80',
      reorder_percent: null,
      reorder_gallons: '100.00',
      zone_id: 2,
      k_factor_override: null,
      baseload_override: null,
      daily_rate_override: '12.500',
    });
  });
});
