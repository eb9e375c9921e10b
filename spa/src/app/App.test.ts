import { describe, expect, it } from 'vitest';
import { TOAST_OPTIONS } from './App';

describe('toasts (spec section 9)', () => {
  it('are top-right, 5000 ms, light, at most 20, at most 350 px wide', () => {
    expect(TOAST_OPTIONS).toEqual({ position: 'top-right', autoClose: 5000, theme: 'light', limit: 20, style: { maxWidth: 350 } });
  });
});
