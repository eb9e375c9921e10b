import { describe, expect, it } from 'vitest';
import { buildApiUrl, normalizeTrailingSlash, rewriteToHttps } from './url';

describe('http → https', () => {
  it('rewrites plain http for hosts that are not local', () => {
    expect(rewriteToHttps('http://api.example.com/api/x')).toBe('https://api.example.com/api/x');
    expect(rewriteToHttps('http://127.0.0.1:8000/api/x')).toBe('http://127.0.0.1:8000/api/x');
    expect(rewriteToHttps('http://localhost:5173/api')).toBe('http://localhost:5173/api');
    expect(rewriteToHttps('/api/x')).toBe('/api/x');
    expect(rewriteToHttps('https://a.b/c')).toBe('https://a.b/c');
  });
});

describe('trailing slashes (spec section 7)', () => {
  it('drops a trailing slash before the query string', () => {
    expect(normalizeTrailingSlash('/api/company-settings/')).toBe('/api/company-settings');
    expect(normalizeTrailingSlash('/api/job-log/?page=1')).toBe('/api/job-log?page=1');
    expect(normalizeTrailingSlash('/api//user-account//')).toBe('/api/user-account');
  });

  it('keeps the listed exceptions as written', () => {
    for (const p of [
      '/api/sales-order/sales-orders/5/status/?status=verified',
      '/api/sales-order/sales-orders/5/start-delivery/',
      '/api/sales-order/sales-orders/5/update/',
      '/api/delivery-ticket/send-email/?sales_order_id=1',
      '/api/delivery-ticket/email/',
      '/api/invoice/create/',
      '/api/invoice/7/email/',
    ]) {
      expect(normalizeTrailingSlash(p)).toBe(p);
    }
  });

  it('gives product list paths a trailing slash', () => {
    expect(normalizeTrailingSlash('/api/product/products?page=1')).toBe('/api/product/products/?page=1');
    expect(normalizeTrailingSlash('/api/product/products/products_category/3')).toBe('/api/product/products/products_category/3/');
    expect(normalizeTrailingSlash('/api/product/products/3')).toBe('/api/product/products/3');
  });

  it('builds API URLs with params', () => {
    expect(buildApiUrl('/user-account', { page: 1, size: 100, search: '' })).toBe('/api/user-account?page=1&size=100');
    expect(buildApiUrl('company-settings/')).toBe('/api/company-settings');
    expect(buildApiUrl('/api/role')).toBe('/api/role');
  });
});
