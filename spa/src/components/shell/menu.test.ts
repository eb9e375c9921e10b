import { describe, expect, it } from 'vitest';
import { MENU, activeGroupId, activeSubPath, groupPath, titleForPath } from './menu';

/** Spec section 2, "Main navigation": the groups in order with their pages in order (plus /forecast, issue 26). */
const SPEC: Array<[string, string[]]> = [
  ['Dashboard', []],
  ['Sales (AR)', ['/sales-order', '/invoice', '/customer', '/customer-company-type', '/sales-order-board']],
  ['Purchase (AP)', ['/purchase-order', '/buying-price', '/price-quotes', '/supplier', '/terminal', '/invoice-parse']],
  ['Operations & Logistics', ['/dispatch-center', '/forecast', '/driver', '/company-asset', '/asset-type', '/yard', '/region', '/state', '/city']],
  ['Products & Inventory', ['/product', '/product-category', '/product-sub-category']],
  ['Pricing', ['/pricing-rule', '/tax', '/fee', '/payment-term', '/payment-method']],
  ['Email', []],
  ['Integrations', ['/quickbook-online', '/quickbook-online/map-items', '/google-authentication']],
  ['Users', ['/user-management', '/role-management']],
  ['Settings', ['/company-settings', '/customer-contact-book', '/about-us', '/onboarding', '/template-designer']],
];

describe('menu data (spec section 2)', () => {
  it('has exactly the groups and pages of the spec, in order', () => {
    expect(MENU.map((g) => [g.title, g.subItems.map((s) => s.path)])).toEqual(SPEC);
  });

  it('sends groups without sub-pages to /{menuId}', () => {
    const direct = MENU.filter((g) => g.subItems.length === 0).map((g) => groupPath(g));
    expect(direct).toEqual(['/dashboard', '/email']);
    expect(groupPath(MENU[1])).toBeNull();
  });

  it('marks exactly the spec BETA pages', () => {
    const beta = MENU.flatMap((g) => g.subItems.filter((s) => s.beta).map((s) => s.path));
    expect(beta).toEqual(['/sales-order-board', '/invoice-parse', '/onboarding']);
  });

  it('uses the spec titles and descriptions where it gives them', () => {
    const sub = (p: string) => MENU.flatMap((g) => g.subItems).find((s) => s.path === p)!;
    expect(sub('/sales-order')).toMatchObject({ title: 'Sales Orders', description: 'Manage customer orders' });
    expect(sub('/invoice').title).toBe('Invoices');
    expect(sub('/sales-order-board')).toMatchObject({ title: 'Sales Order Board', description: 'Visual order tracking' });
    expect(sub('/buying-price').title).toBe('Supplier Buying Prices');
    expect(sub('/price-quotes')).toMatchObject({ title: 'Price Quotes', description: 'Email quotes from suppliers' });
    expect(sub('/invoice-parse')).toMatchObject({ title: 'Bill Parser', description: 'Automated bill processing' });
    expect(sub('/company-asset').description).toBe('Fleet and equipment');
    expect(sub('/quickbook-online').description).toBe('Accounting integration');
    expect(sub('/quickbook-online/map-items').title).toBe('Map Items');
    expect(sub('/google-authentication').description).toBe('Mail-provider integration');
    expect(sub('/user-management').description).toBe('Manage users and drivers');
    expect(sub('/role-management').title).toBe('Roles & Permissions');
    expect(sub('/customer-contact-book').description).toBe('Contacts and subscriptions');
    expect(sub('/template-designer').description).toBe('Custom document templates');
  });

  it('every item has an id, a title and a colour', () => {
    for (const g of MENU) {
      expect(g.id).toMatch(/^[a-z-]+$/);
      expect(g.color).toMatch(/^#[0-9a-f]{6}$/i);
    }
    expect(new Set(MENU.map((g) => g.id)).size).toBe(MENU.length);
  });

  it('highlights the longest matching page', () => {
    expect(activeSubPath('/quickbook-online/map-items')).toBe('/quickbook-online/map-items');
    expect(activeSubPath('/quickbook-online')).toBe('/quickbook-online');
    expect(activeSubPath('/customer/12')).toBe('/customer');
    expect(activeSubPath('/customer-company-type')).toBe('/customer-company-type');
    expect(activeSubPath('/sales-order-board')).toBe('/sales-order-board');
    expect(activeGroupId('/role-management')).toBe('users');
    expect(activeGroupId('/dashboard')).toBe('dashboard');
    expect(activeGroupId('/nowhere')).toBeNull();
    expect(titleForPath('/state')).toBe('States');
  });
});

describe('menu button labels', () => {
  it('are the start of the group title, so the accessible name contains the visible text', () => {
    for (const g of MENU) expect(g.title.startsWith(g.buttonLabel ?? g.title)).toBe(true);
  });
});
