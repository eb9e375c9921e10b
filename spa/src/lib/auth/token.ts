import { STORAGE_KEYS } from './storageKeys';

function safeLocal(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  const raw = safeLocal()?.getItem(STORAGE_KEYS.token) ?? null;
  return raw && raw.trim() ? raw.trim() : null;
}

export function setToken(token: string): void {
  safeLocal()?.setItem(STORAGE_KEYS.token, token);
}

export function removeToken(): void {
  safeLocal()?.removeItem(STORAGE_KEYS.token);
}

/** The stored authorization header; protected routes need one. */
export function getAuthorizationHeader(): string | null {
  const token = getToken();
  return token ? `Bearer ${token}` : null;
}

export interface TokenClaims {
  exp?: number;
  [claim: string]: unknown;
}

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Decodes the JWT payload; null when the token cannot be decoded. */
export function decodeToken(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(base64UrlDecode(parts[1])) as unknown;
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** Milliseconds since the epoch at which the token expires (exp is in seconds); null when unknown. */
export function tokenExpiresAt(token: string): number | null {
  const claims = decodeToken(token);
  if (!claims || typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return null;
  return claims.exp * 1000;
}

export type TokenState = 'missing' | 'valid' | 'expired' | 'invalid';

/** Spec section 4: an expired or undecodable token means the user is logged out. */
export function tokenState(token: string | null = getToken(), now: number = Date.now()): TokenState {
  if (!token) return 'missing';
  const claims = decodeToken(token);
  if (!claims) return 'invalid';
  if (typeof claims.exp === 'number') {
    return claims.exp * 1000 <= now ? 'expired' : 'valid';
  }
  return 'valid';
}
