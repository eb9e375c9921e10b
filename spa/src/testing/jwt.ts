/** Builds an unsigned JWT for tests (the SPA only decodes the payload). */
export function makeJwt(claims: Record<string, unknown>): string {
  const enc = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}.signature`;
}

export function jwtExpiringIn(seconds: number, now = Date.now()): string {
  return makeJwt({ sub: '1', exp: Math.floor(now / 1000) + seconds, tenant: 't_demo' });
}
