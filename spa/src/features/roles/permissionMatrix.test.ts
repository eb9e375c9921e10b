import { describe, expect, it } from 'vitest';
import { buildMatrix, toggleCodes } from './permissionMatrix';

const perms = [
  { code: 'customer.view', resource: 'customer', action: 'view', name: 'View customers' },
  { code: 'customer.delete', resource: 'customer', action: 'delete', name: 'Delete customers' },
  { code: 'sales_order.assign', resource: 'sales_order', action: 'assign', name: 'Assign sales orders' },
  { code: 'sales_order.add', resource: 'sales_order', action: 'add', name: 'Add sales orders' },
];

describe('permission matrix', () => {
  it('lays permissions out as resources × actions', () => {
    const m = buildMatrix(perms);
    expect(m.resources).toEqual([
      { resource: 'customer', label: 'Customer' },
      { resource: 'sales_order', label: 'Sales order' },
    ]);
    expect(m.actions).toEqual(['view', 'add', 'delete', 'assign']);
    expect(m.code('sales_order', 'assign')).toBe('sales_order.assign');
    expect(m.code('customer', 'add')).toBeUndefined();
  });

  it('toggles rows and columns of codes', () => {
    expect(toggleCodes(['a'], ['b', 'c'], true)).toEqual(['a', 'b', 'c']);
    expect(toggleCodes(['a', 'b', 'c'], ['b', 'c'], false)).toEqual(['a']);
  });
});
