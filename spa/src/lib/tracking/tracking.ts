/**
 * Session tracking (spec section 4) through @sentry/react, loaded only when VITE_SENTRY_DSN is set.
 * Page type tag by first path segment; role tag from user_role; start retried after 1000 ms.
 */
import type * as Sentry from '@sentry/react';
import { readUserRole } from '../auth/role';

type SentryModule = typeof Sentry;

export const TRACKING_RETRY_MS = 1000;
export const TRACKING_ENVIRONMENT = 'dev';

const PAGE_TYPES: Record<string, string> = {
  'delivery-order-entry': 'delivery_order',
  'sales-order': 'sales_order',
  dashboard: 'dashboard',
  'todays-order': 'driver_orders',
};

/** The page type of a path by its first segment; other pages are tagged 'other'. */
export function pageTypeFor(pathname: string): string {
  const first = pathname.split('/').filter(Boolean)[0] ?? '';
  return PAGE_TYPES[first] ?? 'other';
}

let sentry: SentryModule | null = null;

export function trackingEnabled(): boolean {
  return sentry !== null;
}

/** Tags the session with the role and the page; throws when Sentry is not ready. */
export function startSessionTracking(mod: Pick<SentryModule, 'setTag' | 'getClient'>, pathname: string): void {
  if (!mod.getClient()) throw new Error('Sentry client is not ready');
  mod.setTag('user_role', readUserRole() || 'anonymous');
  mod.setTag('page_type', pageTypeFor(pathname));
}

/** Starts tracking; a failed start is retried once after 1000 ms. */
export function startWithRetry(
  mod: Pick<SentryModule, 'setTag' | 'getClient'>,
  pathname: () => string,
  schedule: (fn: () => void, ms: number) => unknown = setTimeout,
): void {
  try {
    startSessionTracking(mod, pathname());
  } catch {
    schedule(() => {
      try {
        startSessionTracking(mod, pathname());
      } catch (err) {
        console.warn('Session tracking could not start', err);
      }
    }, TRACKING_RETRY_MS);
  }
}

export async function initTracking(dsn: string | undefined = import.meta.env.VITE_SENTRY_DSN): Promise<void> {
  if (!dsn) return;
  const mod = await import('@sentry/react');
  mod.init({
    dsn,
    environment: (import.meta.env.VITE_SENTRY_ENVIRONMENT) || TRACKING_ENVIRONMENT,
    integrations: [mod.browserTracingIntegration()],
    tracesSampleRate: 0.1,
  });
  sentry = mod;
  startWithRetry(mod, () => window.location.pathname);
}

/** Called on every navigation. */
export function trackPage(pathname: string): void {
  sentry?.setTag('page_type', pageTypeFor(pathname));
}

export function trackRole(role: string | null): void {
  sentry?.setTag('user_role', role || 'anonymous');
}

/** Records an event (e.g. 'logout') as a breadcrumb of the session. */
export function trackEvent(name: string, data?: Record<string, unknown>): void {
  sentry?.addBreadcrumb({ category: 'session', message: name, data, level: 'info' });
}
