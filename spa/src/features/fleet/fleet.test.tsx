import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog, uniqueById } from '@/components/resource';
import { renderWithProviders } from '@/testing/render';
import { assetFields, type AssetForm } from './CompanyAssetPage';
import { CompartmentsEditor, type CompartmentRow } from './CompartmentsEditor';
import { compartmentsProblem, compartmentsTotal, vinProblem } from './compartments';
import { expiryText } from './ExpiryChip';

describe('compartment rules (the server’s, with its sentences)', () => {
  it('checks the total against the capacity', () => {
    expect(compartmentsTotal([{ number: 1, capacity: 2000 }, { number: 2, capacity: 1500 }])).toBe(3500);
    expect(compartmentsProblem([{ number: 1, capacity: 2000 }, { number: 2, capacity: 1000 }], 3000)).toBeNull();
    expect(compartmentsProblem([{ number: 1, capacity: 2000 }, { number: 2, capacity: 1500 }], 3000)).toBe(
      "The compartments hold 3,500 gal in total, more than the asset's capacity of 3,000 gal.",
    );
    expect(compartmentsProblem([{ number: 1, capacity: 10 }], 0)).toMatch(/more than the asset's capacity of 0 gal/);
  });

  it('needs numbered, positive, distinct compartments, at most 12', () => {
    expect(compartmentsProblem([{ number: 1, capacity: null }], 5000)).toBe('Each compartment needs a number and a capacity.');
    expect(compartmentsProblem([{ number: 0, capacity: 100 }], 5000)).toBe('Compartment numbers and capacities must be positive whole numbers.');
    expect(compartmentsProblem([{ number: 1, capacity: 100 }, { number: 1, capacity: 100 }], 5000)).toBe('Each compartment needs its own number.');
    const thirteen = Array.from({ length: 13 }, (_, i) => ({ number: i + 1, capacity: 10 }));
    expect(compartmentsProblem(thirteen, 5000)).toBe('At most 12 compartments.');
  });

  it('checks a VIN like the server (49 CFR 565 check digit)', () => {
    expect(vinProblem('')).toBeNull();
    expect(vinProblem('1M8GDM9AXKP042788')).toBeNull();
    expect(vinProblem('1m8gdm9axkp042788')).toBeNull();
    expect(vinProblem('1M8GDM9A1KP042788')).toBe('The check digit (9th character) does not match the rest of the VIN; please re-check it.');
    expect(vinProblem('1M8GDM9AXKP04278')).toBe('A VIN has exactly 17 characters (this one has 16).');
    expect(vinProblem('1M8GDM9AXKPO42788')).toBe("A VIN uses digits and the letters A-Z except I, O and Q (found 'O').");
  });
});

function Editor({ capacity, initial }: { capacity: number; initial: CompartmentRow[] }) {
  const [rows, setRows] = useState(initial);
  return <CompartmentsEditor value={rows} onChange={setRows} capacity={capacity} />;
}

describe('compartments editor', () => {
  it('shows the total against the capacity as it is typed', () => {
    renderWithProviders(<Editor capacity={3000} initial={[{ number: 1, capacity: 2000 }]} />);
    expect(screen.getByTestId('compartments-total')).toHaveTextContent('Total 2,000 of 3,000 gal (1,000 gal not in a compartment)');
    fireEvent.click(screen.getByRole('button', { name: 'Add compartment' }));
    expect(screen.getByRole('spinbutton', { name: 'Compartment 2 number' })).toHaveValue(2);
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Compartment 2 capacity' }), { target: { value: '1500' } });
    expect(screen.getByTestId('compartments-total')).toHaveTextContent('Total 3,500 of 3,000 gal — 500 gal over the capacity');
    fireEvent.click(screen.getByRole('button', { name: 'Remove compartment 1' }));
    expect(screen.getByTestId('compartments-total')).toHaveTextContent('Total 1,500 of 3,000 gal');
  });

  it('blocks saving a company asset whose compartments exceed its capacity', async () => {
    const fields = assetFields.filter((f) => f.name === 'capacity' || f.name === 'compartments');
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const initial: AssetForm = {
      asset_number: 'T-1', name: 'Truck', asset_type_id: 1, capacity: 3000, compartments: [{ number: 1, capacity: 2000 }, { number: 2, capacity: 1500 }],
      plate: '', vin: '', home_yard_id: null, is_active: true,
    };
    renderWithProviders(<FormDialog<AssetForm> open mode="create" title="New company asset" fields={fields} initialValues={initial} onSubmit={onSubmit} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("The compartments hold 3,500 gal in total, more than the asset's capacity of 3,000 gal.");
    expect(onSubmit).not.toHaveBeenCalled();
    // Raising the capacity makes it valid.
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Capacity (US gal)' }), { target: { value: '4000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ capacity: 4000 })));
  });
});

describe('drivers', () => {
  it('words licence and hazmat expiry', () => {
    expect(expiryText('2030-01-01', 400)).not.toMatch(/Expire/);
    expect(expiryText('2026-12-01', 9)).toBe('Expires in 9 days');
    expect(expiryText('2026-11-22', 0)).toBe('Expires today');
    expect(expiryText('2026-11-01', -21)).toBe('Expired 21 days ago');
    expect(expiryText(null, null)).toBe('');
  });

  it('de-duplicates the driver list by id (spec section 7)', () => {
    expect(uniqueById([{ id: 1, name: 'A' }, { id: 2, name: 'B' }, { id: 1, name: 'A again' }]).map((d) => d.name)).toEqual(['A', 'B']);
  });
});
