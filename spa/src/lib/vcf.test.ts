import { describe, expect, it } from 'vitest';
import points from '../../../tenants/delivery/tests/vcf_points.json';
import { netVolume, vcf, type VcfGroup } from './vcf';

describe('table 6B VCF (same points as the server)', () => {
  for (const p of points.points) {
    it(`${p.group} ${p.api} API at ${p.temperature_f} °F = ${p.vcf}`, () => {
      expect(vcf(Number(p.temperature_f), Number(p.api), p.group as VcfGroup)?.toFixed(4)).toBe(p.vcf);
    });
  }
  it('computes net gallons to a tenth, half up, as the server does', () => {
    expect(netVolume(1000, 80, 35, 'distillate')).toBe(990.7);
    expect(netVolume(2987.4, 80, 35, 'distillate')).toBe(2959.6);
    expect(netVolume(1512, 75, 63, 'gasoline')).toBe(1496.1);
    expect(netVolume(500, 75, 60, 'gasoline')).toBe(494.9); // 494.85 rounds up
    expect(netVolume(12.5, 95, 35, 'none')).toBe(12.5);
  });
  it('refuses what the tables do not cover', () => {
    expect(vcf(301, 35, 'distillate')).toBeNull();
    expect(vcf(70, 101, 'gasoline')).toBeNull();
    expect(netVolume(-1, 70, 35, 'distillate')).toBeNull();
  });
});
