/** A compartment as typed in the form (empty inputs are null). */
export interface CompartmentInput {
  number?: number | null;
  capacity?: number | null;
}

export const MAX_COMPARTMENTS = 12;

export function compartmentsTotal(rows: readonly CompartmentInput[]): number {
  return rows.reduce((sum, r) => sum + (Number(r.capacity) || 0), 0);
}

/** The server's rules for a company asset's compartments, with its sentences. */
export function compartmentsProblem(rows: readonly CompartmentInput[], capacity: number | null | undefined): string | null {
  if (rows.length > MAX_COMPARTMENTS) return `At most ${MAX_COMPARTMENTS} compartments.`;
  for (const r of rows) {
    if (r.number === undefined || r.number === null || r.capacity === undefined || r.capacity === null) return 'Each compartment needs a number and a capacity.';
    if (!Number.isInteger(r.number) || !Number.isInteger(r.capacity) || r.number < 1 || r.capacity < 1) return 'Compartment numbers and capacities must be positive whole numbers.';
  }
  const numbers = rows.map((r) => r.number);
  if (new Set(numbers).size !== numbers.length) return 'Each compartment needs its own number.';
  const total = compartmentsTotal(rows);
  const cap = capacity ?? 0;
  if (total > cap) return `The compartments hold ${total.toLocaleString('en-US')} gal in total, more than the asset's capacity of ${cap.toLocaleString('en-US')} gal.`;
  return null;
}

/** VIN: 17 characters, digits and capitals except I, O, Q, with the North American check digit (49 CFR 565). */
const VIN_ALPHABET = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
const VIN_VALUES: Record<string, number> = {
  ...Object.fromEntries('0123456789'.split('').map((d) => [d, Number(d)])),
  ...Object.fromEntries('ABCDEFGH'.split('').map((c, i) => [c, i + 1])),
  ...Object.fromEntries('JKLMN'.split('').map((c, i) => [c, i + 1])),
  P: 7,
  R: 9,
  ...Object.fromEntries('STUVWXYZ'.split('').map((c, i) => [c, i + 2])),
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

export function vinProblem(raw: string): string | null {
  const vin = raw.trim().toUpperCase();
  if (!vin) return null;
  if (vin.length !== 17) return `A VIN has exactly 17 characters (this one has ${vin.length}).`;
  const bad = [...new Set(vin.split('').filter((c) => !VIN_ALPHABET.includes(c)))].sort();
  if (bad.length) return `A VIN uses digits and the letters A-Z except I, O and Q (found ${bad.map((c) => `'${c}'`).join(', ')}).`;
  const rem = vin.split('').reduce((s, c, i) => s + VIN_VALUES[c] * VIN_WEIGHTS[i], 0) % 11;
  if (vin[8] !== (rem === 10 ? 'X' : String(rem))) return 'The check digit (9th character) does not match the rest of the VIN; please re-check it.';
  return null;
}
