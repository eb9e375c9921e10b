/**
 * Field groups that several resources share (addresses, coordinates), described as data like any
 * other field. The server's rules: a city must be in the chosen state; latitude and longitude are
 * given together, −90…90 and −180…180.
 */
import { useCityOptions, useStateOptions } from '@/lib/api/lookups';
import type { FieldDef } from './formTypes';

export interface StateCityValues {
  state_id: number | null;
  city_id: number | null;
}

export interface AddressValues extends StateCityValues {
  address_one: string;
  address_two: string;
  zip_code: string;
}

export interface LatLongValues {
  latitude: number | null;
  longitude: number | null;
}

type Key<V> = Extract<keyof V, string>;

/** State, then the cities of that state (changing the state clears the city). */
export function stateCityFields<V extends StateCityValues>(): FieldDef<V>[] {
  return [
    {
      name: 'state_id' as Key<V>,
      label: 'State',
      type: 'select',
      width: 4,
      useOptions: () => useStateOptions(),
      onValueChange: () => ({ city_id: null }) as Partial<V>,
    },
    {
      name: 'city_id' as Key<V>,
      label: 'City',
      type: 'select',
      width: 4,
      useOptions: (v) => useCityOptions(v.state_id),
      disabled: (_m, v) => !v.state_id,
    },
  ];
}

/** Street lines, state, city and ZIP code. */
export function addressFields<V extends AddressValues>(section?: string): FieldDef<V>[] {
  return [
    { name: 'address_one' as Key<V>, label: 'Address', width: 12, maxLength: 200, section, autoComplete: 'off' },
    { name: 'address_two' as Key<V>, label: 'Address line 2', width: 12, maxLength: 200, autoComplete: 'off' },
    ...stateCityFields<V>(),
    { name: 'zip_code' as Key<V>, label: 'ZIP code', width: 4, maxLength: 20, pattern: { regex: /^[A-Za-z0-9 -]{3,10}$/, message: 'Enter a valid ZIP code' } },
  ];
}

/** Latitude and longitude (both or neither). */
export function latLongFields<V extends LatLongValues>(): FieldDef<V>[] {
  const together = (other: 'latitude' | 'longitude') => (value: unknown, values: V) =>
    value !== null && value !== undefined && (values[other] === null || values[other] === undefined) ? `Enter the ${other} too` : null;
  return [
    { name: 'latitude' as Key<V>, label: 'Latitude', type: 'number', width: 6, min: -90, max: 90, step: 0.000001, validate: together('longitude'), helperText: 'e.g. 29.7604' },
    { name: 'longitude' as Key<V>, label: 'Longitude', type: 'number', width: 6, min: -180, max: 180, step: 0.000001, validate: together('latitude'), helperText: 'e.g. -95.3698' },
  ];
}

/** '' → null for optional numbers typed as text by the server (decimals). */
export function numOrNull(v: number | string | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}
