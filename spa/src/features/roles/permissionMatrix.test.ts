import { describe, expect, it } from 'vitest';
import { buildMatrix, rowScope, setRowScope, toggleCodes } from './permissionMatrix';

const perms = [
  { code: 'customer.view', resource: 'customer', action: 'view', name: 'View customers', own_scope: false },
  { code: 'customer.delete', resource: 'customer', action: 'delete', name: 'Delete customers', own_scope: false },
  { code: 'sales_order.assign', resource: 'sales_order', action: 'assign', name: 'Assign sales orders', own_scope: true },
  { code: 'sales_order.add', resource: 'sales_order', action: 'add', name: 'Add sales orders', own_scope: true },
];

describe('permission matrix', () => {
  it('lays permissions out as resources × actions', () => {
    const m = buildMatrix(perms);
    expect(m.resources).toEqual([
      { resource: 'customer', label: 'Customer', ownScope: false },
      { resource: 'sales_order', label: 'Sales order', ownScope: true },
    ]);
    expect(m.actions).toEqual(['view', 'add', 'delete', 'assign']);
    expect(m.code('sales_order', 'assign')).toBe('sales_order.assign');
    expect(m.code('customer', 'add')).toBeUndefined();
  });

  it('toggles rows and columns of codes', () => {
    expect(toggleCodes(['a'], ['b', 'c'], true)).toEqual(['a', 'b', 'c']);
    expect(toggleCodes(['a', 'b', 'c'], ['b', 'c'], false)).toEqual(['a']);
  });

  it('grants a scopable resource on own rows (`<code>:own`) and moves held codes between scopes', () => {
    const codes = ['sales_order.view', 'sales_order.deliver'];
    const own = toggleCodes(['customer.view'], ['sales_order.view'], true, 'own');
    expect(own).toEqual(['customer.view', 'sales_order.view:own']);
    expect(rowScope(own, codes)).toBe('own');
    expect(setRowScope(own, codes, 'all')).toEqual(['customer.view', 'sales_order.view']);
    expect(setRowScope(['sales_order.view'], codes, 'own')).toEqual(['sales_order.view:own']);
    // Unticking removes either scope.
    expect(toggleCodes(own, ['sales_order.view'], false)).toEqual(['customer.view']);
  });
});
