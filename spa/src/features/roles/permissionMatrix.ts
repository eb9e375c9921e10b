import type { Permission } from './rolesApi';

/** The usual actions first, any others (e.g. assign) after, alphabetically. */
const ACTION_ORDER = ['view', 'add', 'change', 'delete'];

export interface Matrix {
  resources: { resource: string; label: string }[];
  actions: string[];
  /** code by resource and action, when that permission exists. */
  code: (resource: string, action: string) => string | undefined;
}

export function humanize(code: string): string {
  const text = code.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function buildMatrix(permissions: readonly Permission[]): Matrix {
  const byKey = new Map<string, string>();
  const resources = new Map<string, string>();
  const actions = new Set<string>();
  for (const p of permissions) {
    byKey.set(`${p.resource}\u0000${p.action}`, p.code);
    if (!resources.has(p.resource)) resources.set(p.resource, humanize(p.resource));
    actions.add(p.action);
  }
  const sortedActions = [...actions].sort((a, b) => {
    const ia = ACTION_ORDER.indexOf(a);
    const ib = ACTION_ORDER.indexOf(b);
    if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
    return a.localeCompare(b);
  });
  return {
    resources: [...resources].map(([resource, label]) => ({ resource, label })).sort((a, b) => a.label.localeCompare(b.label)),
    actions: sortedActions,
    code: (resource, action) => byKey.get(`${resource}\u0000${action}`),
  };
}

/** Toggles a set of codes on (all given) or off. */
export function toggleCodes(selected: readonly string[], codes: readonly string[], on: boolean): string[] {
  const set = new Set(selected);
  for (const c of codes) {
    if (on) set.add(c);
    else set.delete(c);
  }
  return [...set].sort();
}
