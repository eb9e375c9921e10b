import type { Permission } from './rolesApi';

/** The usual actions first, any others (e.g. assign) after, alphabetically. */
const ACTION_ORDER = ['view', 'add', 'change', 'delete'];

export interface Matrix {
  /** ownScope: the resource's permissions may be held on the user's own rows only (`<code>:own`). */
  resources: { resource: string; label: string; ownScope: boolean }[];
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
  const scopable = new Set<string>();
  const actions = new Set<string>();
  for (const p of permissions) {
    byKey.set(`${p.resource}\u0000${p.action}`, p.code);
    if (!resources.has(p.resource)) resources.set(p.resource, humanize(p.resource));
    if (p.own_scope) scopable.add(p.resource);
    actions.add(p.action);
  }
  const sortedActions = [...actions].sort((a, b) => {
    const ia = ACTION_ORDER.indexOf(a);
    const ib = ACTION_ORDER.indexOf(b);
    if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
    return a.localeCompare(b);
  });
  return {
    resources: [...resources].map(([resource, label]) => ({ resource, label, ownScope: scopable.has(resource) })).sort((a, b) => a.label.localeCompare(b.label)),
    actions: sortedActions,
    code: (resource, action) => byKey.get(`${resource}\u0000${action}`),
  };
}

export type RowScope = 'all' | 'own';
export const OWN_SUFFIX = ':own';

/** Whether a code is held, on every row or on the user's own rows (`<code>:own`). */
export function holds(selected: ReadonlySet<string>, code: string): boolean {
  return selected.has(code) || selected.has(code + OWN_SUFFIX);
}

/** The rows a resource's held codes reach: 'own' when any of them is own-scoped. */
export function rowScope(selected: readonly string[], codes: readonly string[]): RowScope {
  return codes.some((c) => selected.includes(c + OWN_SUFFIX)) ? 'own' : 'all';
}

/** Toggles a set of codes on (in `scope`: every row, or own rows) or off (either scope). */
export function toggleCodes(selected: readonly string[], codes: readonly string[], on: boolean, scope: RowScope = 'all'): string[] {
  const set = new Set(selected);
  for (const c of codes) {
    set.delete(c);
    set.delete(c + OWN_SUFFIX);
    if (on) set.add(scope === 'own' ? c + OWN_SUFFIX : c);
  }
  return [...set].sort();
}

/** Moves the held codes among `codes` to a scope (unheld ones stay unheld). */
export function setRowScope(selected: readonly string[], codes: readonly string[], scope: RowScope): string[] {
  const set = new Set(selected);
  for (const c of codes) {
    if (!holds(set, c)) continue;
    set.delete(c);
    set.delete(c + OWN_SUFFIX);
    set.add(scope === 'own' ? c + OWN_SUFFIX : c);
  }
  return [...set].sort();
}
