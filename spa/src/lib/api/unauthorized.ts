import { MSG_SESSION_EXPIRED } from './errors';
import { sessionHandlers } from './session';

/**
 * Spec sections 8 and 9: how each area reacts to an UNAUTHORIZED answer.
 * - data calls and settings (and the shared handler of user and alias calls): toast the detail,
 *   clear local and session storage, go to / after 5200 ms;
 * - invoice calls: the same after 2000 ms;
 * - role, permission and email-agent calls: toast the message or 'Unauthorized access', clear,
 *   go to / after 2000 ms;
 * - email calls: remove the token and go to /login;
 * - sales-order 'soft' calls: toast and go to / after 5200 ms without clearing storage.
 */
export type UnauthorizedArea = 'data' | 'settings' | 'user' | 'alias' | 'invoice' | 'role' | 'permission' | 'email-agent' | 'email' | 'sales-order-soft';

export const UNAUTHORIZED_REDIRECT_MS = 5200;
export const UNAUTHORIZED_FAST_REDIRECT_MS = 2000;
export const MSG_UNAUTHORIZED_ACCESS = 'Unauthorized access';

export function redirectDelayFor(area: UnauthorizedArea): number {
  switch (area) {
    case 'invoice':
    case 'role':
    case 'permission':
    case 'email-agent':
      return UNAUTHORIZED_FAST_REDIRECT_MS;
    case 'email':
      return 0;
    default:
      return UNAUTHORIZED_REDIRECT_MS;
  }
}

/** Picks the area from the API path (without the /api prefix or with it). */
export function areaForPath(url: string): UnauthorizedArea {
  const path = url.replace(/^https?:\/\/[^/]+/i, '').split('?')[0].replace(/^\/api(?=\/)/, '');
  if (/^\/email-agent(\/|$)/.test(path)) return 'email-agent';
  if (/^\/role(\/|$)/.test(path)) return 'role';
  if (/^\/permission(\/|$)/.test(path)) return 'permission';
  if (/^\/email(\/|$)/.test(path)) return 'email';
  if (/^\/delivery-ticket\/(send-email|email|email-sent)/.test(path)) return 'email';
  if (/^\/invoice\/[^/]+\/(email|send-email|email-sent)/.test(path)) return 'email';
  if (/^\/invoice(\/|$)/.test(path)) return 'invoice';
  if (/^\/company-settings(\/|$)/.test(path)) return 'settings';
  if (/^\/user-account(\/|$)/.test(path)) return 'user';
  if (/^\/supplier-product-alias(\/|$)/.test(path)) return 'alias';
  return 'data';
}

/** Calls whose own 401 is an answer to show, not a session to end. */
export function isSessionlessPath(url: string): boolean {
  const path = url.replace(/^https?:\/\/[^/]+/i, '').split('?')[0].replace(/^\/api(?=\/)/, '');
  return /^\/(login|tenant|logout|password-reset)(\/|$)/.test(path);
}

let pendingRedirect: ReturnType<typeof setTimeout> | null = null;

export function hasPendingUnauthorizedRedirect(): boolean {
  return pendingRedirect !== null;
}

/** For tests: forget a scheduled redirect. */
export function resetUnauthorizedState(): void {
  if (pendingRedirect) clearTimeout(pendingRedirect);
  pendingRedirect = null;
}

/** Reacts once to an UNAUTHORIZED answer; further answers while a redirect is pending are ignored. */
export function handleUnauthorized(message: string | undefined, area: UnauthorizedArea): void {
  const h = sessionHandlers();
  if (area === 'email') {
    h.removeToken();
    h.redirect('/login');
    return;
  }
  if (pendingRedirect) return;
  const fastArea = area === 'role' || area === 'permission' || area === 'email-agent';
  const text = message && message !== 'Unauthorized' ? message : fastArea ? MSG_UNAUTHORIZED_ACCESS : MSG_SESSION_EXPIRED;
  h.notifyError(text);
  if (area !== 'sales-order-soft') h.clearClientState();
  pendingRedirect = setTimeout(() => {
    pendingRedirect = null;
    h.redirect('/');
  }, redirectDelayFor(area));
}
