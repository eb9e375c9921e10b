/** Layout constants of spec section 9 and the shell's window events. */
export const RAIL_WIDTH = 80;
export const MOBILE_BREAKPOINT = 768;
export const MOBILE_QUERY = `(max-width:${MOBILE_BREAKPOINT}px)`;
export const POPUP_MIN_WIDTH = 280;
export const POPUP_MAX_WIDTH = 320;
export const POPUP_MAX_HEIGHT = 400;
export const POPUP_VIEWPORT_MARGIN = 40;
export const POPUP_CLOSE_DELAY_MS = 150;
export const POPUP_ROW_HEIGHT = 60;
export const POPUP_HEADER_HEIGHT = 50;
export const MOBILE_GROUP_BUTTON_WIDTH = 65;
export const MOBILE_BAR_HEIGHT = 64;
export const SHEET_MAX_WIDTH = 320;
export const SHEET_MAX_HEIGHT = '50vh';
export const MOBILE_BOTTOM_MARGIN = 70;

/** Un-hides the rail. */
export const EXPAND_SIDEBAR_EVENT = 'expand-sidebar';
/** Carries {isFullscreen: boolean} (or a bare boolean): true hides the rail, false shows it. */
export const SALES_ORDER_FULLSCREEN_EVENT = 'sales-order-fullscreen-change';

export function fullscreenFlag(event: Event): boolean | null {
  const detail: unknown = (event as CustomEvent<unknown>).detail;
  if (typeof detail === 'boolean') return detail;
  if (detail && typeof detail === 'object') {
    const d = detail as Record<string, unknown>;
    const flag = d.isFullscreen ?? d.fullscreen ?? d.isFullScreen;
    if (typeof flag === 'boolean') return flag;
  }
  return null;
}

/** The popup's maximum height: the smaller of the window height minus 40 and 400. */
export function popupMaxHeight(viewportHeight: number): number {
  return Math.max(POPUP_HEADER_HEIGHT, Math.min(viewportHeight - POPUP_VIEWPORT_MARGIN, POPUP_MAX_HEIGHT));
}

export interface AnchorRect {
  top: number;
  left: number;
  right: number;
}

export interface PopupPlacement {
  top: number;
  left: number;
  width: number;
  maxHeight: number;
  placement: 'right' | 'left';
}

const GAP = 4;
const EDGE = 8;

/**
 * Where the hover popup goes: beside the anchor on the right, flipped to the left when it would
 * overflow the window; width 280–320; height capped; kept inside the window vertically.
 */
export function popupPosition(anchor: AnchorRect, itemCount: number, viewport: { width: number; height: number }): PopupPlacement {
  const maxHeight = popupMaxHeight(viewport.height);
  const height = Math.min(POPUP_HEADER_HEIGHT + POPUP_ROW_HEIGHT * Math.max(itemCount, 1), maxHeight);
  const spaceRight = viewport.width - anchor.right - GAP - EDGE;
  let placement: 'right' | 'left' = 'right';
  let width = Math.min(POPUP_MAX_WIDTH, Math.max(POPUP_MIN_WIDTH, spaceRight));
  let left = anchor.right + GAP;
  if (spaceRight < POPUP_MIN_WIDTH) {
    placement = 'left';
    const spaceLeft = anchor.left - GAP - EDGE;
    width = Math.min(POPUP_MAX_WIDTH, Math.max(POPUP_MIN_WIDTH, spaceLeft));
    left = Math.max(EDGE, anchor.left - GAP - width);
  }
  const top = Math.max(POPUP_VIEWPORT_MARGIN / 2, Math.min(anchor.top, viewport.height - height - POPUP_VIEWPORT_MARGIN / 2));
  return { top, left, width, maxHeight, placement };
}

/**
 * The phone's bottom bar at a window width: how many groups fit as buttons (65px each) and whether
 * the rest go behind a 'More' button (which takes the last slot). Every group stays reachable.
 */
export function bottomBarSlots(width: number, groups: number): { shown: number; more: boolean } {
  const slots = Math.max(2, Math.floor(width / MOBILE_GROUP_BUTTON_WIDTH));
  return groups <= slots ? { shown: groups, more: false } : { shown: slots - 1, more: true };
}
