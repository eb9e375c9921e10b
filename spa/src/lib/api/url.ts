/** URL building for API calls: base, http→https rewrite, spec section 7's trailing-slash rule. */

export const API_BASE: string = (import.meta.env.VITE_API_BASE) || '/api';

const LOCAL_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]|::1)$/i;

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.test(hostname) || hostname.endsWith('.localhost');
}

/** Plain http is rewritten to https for every host that is not this machine. */
export function rewriteToHttps(url: string): string {
  const match = /^http:\/\/([^/:?#]+|\[[^\]]+\])/i.exec(url);
  if (!match) return url;
  return isLocalHost(match[1]) ? url : `https://${url.slice('http://'.length)}`;
}

/**
 * Paths whose trailing slash is kept exactly as written (spec section 7):
 * sales-order update / status / start-delivery, delivery-ticket send-email and email,
 * invoice create, invoice {id} email.
 */
const KEEP_AS_WRITTEN: RegExp[] = [
  /\/sales-order\/.*\/(update|status|start-delivery)\/?$/,
  /\/sales-order\/.*(update|status|start-delivery)\/?$/,
  /\/delivery-ticket\/(send-email|email)\/?$/,
  /\/invoice\/(.*\/)?create\/?$/,
  /\/invoice\/(.*\/)?[^/]+\/email\/?$/,
];

/** Product list paths get a trailing slash before the query string. */
const PRODUCT_LIST = /\/product\/products(\/products_category\/[^/]+)?\/?$/;

/**
 * Normalises the path part of a URL (the part before '?'): duplicate slashes collapse, a trailing
 * slash is dropped, except for the paths above; product list paths always end in '/'.
 */
export function normalizeTrailingSlash(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  const schemeEnd = path.indexOf('://');
  const prefix = schemeEnd === -1 ? '' : path.slice(0, schemeEnd + 3);
  let rest = (schemeEnd === -1 ? path : path.slice(schemeEnd + 3)).replace(/\/{2,}/g, '/');
  if (KEEP_AS_WRITTEN.some((re) => re.test(rest))) return prefix + rest + query;
  if (PRODUCT_LIST.test(rest)) {
    if (!rest.endsWith('/')) rest += '/';
    return prefix + rest + query;
  }
  if (rest.length > 1 && rest.endsWith('/')) rest = rest.replace(/\/+$/, '');
  return prefix + rest + query;
}

export type QueryValue = string | number | boolean | null | undefined | Array<string | number>;

export function toQueryString(params?: Record<string, QueryValue>): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => search.append(key, String(v)));
    else search.append(key, String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** Joins the API base and a path ("/user-account" or "user-account"), adds params, applies the rules. */
export function buildApiUrl(path: string, params?: Record<string, QueryValue>): string {
  const absolute = /^https?:\/\//i.test(path);
  let url = absolute ? path : `${API_BASE.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  if (!absolute && path.startsWith(API_BASE + '/')) url = path;
  const [p, existingQuery] = url.split('?', 2) as [string, string | undefined];
  const extra = toQueryString(params);
  const query = existingQuery ? `?${existingQuery}${extra ? '&' + extra.slice(1) : ''}` : extra;
  return rewriteToHttps(normalizeTrailingSlash(p + query));
}
