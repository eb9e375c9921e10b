import { describe, expect, it } from 'vitest';
import { jwtExpiringIn, makeJwt } from '@/testing/jwt';
import { decodeToken, getAuthorizationHeader, tokenExpiresAt, tokenState } from './token';

describe('token', () => {
  it('reads exp in seconds', () => {
    const now = Date.UTC(2026, 0, 1);
    const token = jwtExpiringIn(60, now);
    expect(tokenExpiresAt(token)).toBe(Math.floor(now / 1000) * 1000 + 60_000);
    expect(tokenState(token, now)).toBe('valid');
    expect(tokenState(token, now + 61_000)).toBe('expired');
  });

  it('calls a token it cannot decode invalid, and no token missing', () => {
    expect(tokenState('not-a-jwt')).toBe('invalid');
    expect(tokenState('a.b.c')).toBe('invalid');
    expect(tokenState(null)).toBe('missing');
    expect(decodeToken(makeJwt({ exp: 5 }))).toEqual({ exp: 5 });
  });

  it('builds the authorization header from the stored token', () => {
    expect(getAuthorizationHeader()).toBeNull();
    window.localStorage.setItem('token', 'abc');
    expect(getAuthorizationHeader()).toBe('Bearer abc');
  });
});
