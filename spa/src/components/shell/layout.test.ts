import { describe, expect, it } from 'vitest';
import { POPUP_CLOSE_DELAY_MS, POPUP_HEADER_HEIGHT, POPUP_ROW_HEIGHT, RAIL_WIDTH, MOBILE_BREAKPOINT, MOBILE_BOTTOM_MARGIN, MOBILE_GROUP_BUTTON_WIDTH, SHEET_MAX_HEIGHT, SHEET_MAX_WIDTH, fullscreenFlag, popupMaxHeight, popupPosition } from './layout';

describe('layout constants (spec section 9)', () => {
  it('matches the spec', () => {
    expect(RAIL_WIDTH).toBe(80);
    expect(MOBILE_BREAKPOINT).toBe(768);
    expect(POPUP_CLOSE_DELAY_MS).toBe(150);
    expect(POPUP_ROW_HEIGHT).toBe(60);
    expect(POPUP_HEADER_HEIGHT).toBe(50);
    expect(MOBILE_GROUP_BUTTON_WIDTH).toBe(65);
    expect(SHEET_MAX_HEIGHT).toBe('50vh');
    expect(SHEET_MAX_WIDTH).toBe(320);
    expect(MOBILE_BOTTOM_MARGIN).toBe(70);
  });

  it('caps the popup at min(window height - 40, 400)', () => {
    expect(popupMaxHeight(900)).toBe(400);
    expect(popupMaxHeight(300)).toBe(260);
  });

  it('opens beside the rail, 280–320 wide', () => {
    const p = popupPosition({ top: 100, left: 0, right: 80 }, 5, { width: 1440, height: 900 });
    expect(p.placement).toBe('right');
    expect(p.left).toBeGreaterThanOrEqual(80);
    expect(p.width).toBeGreaterThanOrEqual(280);
    expect(p.width).toBeLessThanOrEqual(320);
    expect(p.top).toBe(100);
  });

  it('flips to the left when it would overflow', () => {
    const p = popupPosition({ top: 100, left: 900, right: 980 }, 3, { width: 1100, height: 900 });
    expect(p.placement).toBe('left');
    expect(p.left + p.width).toBeLessThanOrEqual(900);
  });

  it('stays inside the window vertically', () => {
    const p = popupPosition({ top: 850, left: 0, right: 80 }, 8, { width: 1440, height: 900 });
    expect(p.top + Math.min(50 + 8 * 60, p.maxHeight)).toBeLessThanOrEqual(900);
  });

  it('reads the fullscreen flag from the event', () => {
    expect(fullscreenFlag(new CustomEvent('x', { detail: { isFullscreen: true } }))).toBe(true);
    expect(fullscreenFlag(new CustomEvent('x', { detail: false }))).toBe(false);
    expect(fullscreenFlag(new Event('x'))).toBeNull();
  });
});
