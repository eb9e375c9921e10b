/**
 * Net volume at 60 °F: API MPMS 11.1 (1980) table 6B, the same formula as the server's
 * tenants/delivery/vcf.py (the server's figure is the one recorded; this one is the live preview).
 * Tested against the same points (tenants/delivery/tests/vcf_points.json).
 */
export type VcfGroup = 'gasoline' | 'distillate' | 'jet' | 'transition' | 'none';

const WATER_DENSITY_60F = 999.012;
const CONSTANTS: Record<'gasoline' | 'jet' | 'distillate', [number, number]> = {
  gasoline: [192.4571, 0.2438],
  jet: [330.301, 0],
  distillate: [103.872, 0.2701],
};
const TRANSITION_A = -0.00336312;
const TRANSITION_B = 2680.3206;

/** Half-up rounding to `places` decimals on the decimal string (no binary drift at the half). */
export function roundHalfUp(value: number, places: number): number {
  const factor = 10 ** places;
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  return (Math.sign(value) * Math.floor(scaled + 0.5)) / factor;
}

/** The table 6B VCF (4 decimals) from `temperatureF` to 60 °F; null when it cannot be computed. */
export function vcf(temperatureF: number, apiGravity: number, group: VcfGroup): number | null {
  if (group === 'none') return 1;
  if (!Number.isFinite(temperatureF) || !Number.isFinite(apiGravity)) return null;
  if (temperatureF < -50 || temperatureF > 300 || apiGravity < 0 || apiGravity > 100) return null;
  const api = roundHalfUp(apiGravity, 1);
  const rho = (141.5 * WATER_DENSITY_60F) / (131.5 + api);
  let alpha: number;
  if (group === 'transition') alpha = TRANSITION_A + TRANSITION_B / (rho * rho);
  else {
    const [k0, k1] = CONSTANTS[group];
    alpha = k0 / (rho * rho) + k1 / rho;
  }
  const dt = roundHalfUp(temperatureF, 1) - 60;
  return roundHalfUp(Math.exp(-alpha * dt * (1 + 0.8 * alpha * dt)), 4);
}

/** Gross gallons → net gallons at 60 °F, to 0.1 gal half up; null when it cannot be computed. */
export function netVolume(gross: number, temperatureF: number, apiGravity: number, group: VcfGroup): number | null {
  if (!Number.isFinite(gross) || gross < 0) return null;
  const factor = vcf(temperatureF, apiGravity, group);
  if (factor === null) return null;
  // gross has at most 3 decimals and the factor 4: the exact product has 7, rounded once.
  return roundHalfUp(Number((gross * factor).toFixed(7)), 1);
}
