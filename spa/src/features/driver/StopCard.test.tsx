import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import type { Stop } from './driverApi';
import { StopCard } from './StopCard';

function stop(eta: string | null): Stop {
  return {
    id: 7,
    number: 'SO-000007',
    status: 'assigned',
    version: 'v1',
    stop_number: 2,
    stop_sequence: 2,
    eta,
    planned_date: '2026-12-01',
    planned_time_from: '08:00:00',
    planned_time_to: '10:00:00',
    po_number: '',
    instructions: '',
    customer_name: 'Acme Construction',
    customer_phone: '',
    ship_to: { id: 1, name: 'Main yard', address: '100 Main St', latitude: null, longitude: null, delivery_instructions: '', access_hours: '' },
    maps_url: 'https://maps.google.com/?q=100+Main+St',
    geo_url: 'geo:0,0?q=100+Main+St',
    truck: null,
    trailer: null,
    delivery_started_at: null,
    delivered_at: null,
    lines: [],
    tanks: [],
  };
}

describe('a stop of the driver portal (issue 27)', () => {
  it("shows the accepted route plan's ETA beside the window", () => {
    renderWithProviders(<StopCard stop={stop('09:15:00')} index={0} queued={[]} onStart={() => {}} onDeliver={() => {}} />);
    expect(screen.getByTestId('stop-eta')).toHaveTextContent('ETA 09:15');
    expect(screen.getByText('08:00–10:00')).toBeInTheDocument();
  });

  it('shows no ETA when the stop was not planned', () => {
    renderWithProviders(<StopCard stop={stop(null)} index={0} queued={[]} onStart={() => {}} onDeliver={() => {}} />);
    expect(screen.queryByTestId('stop-eta')).toBeNull();
  });
});
