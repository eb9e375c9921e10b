import { useCallback, useEffect, useRef, useState } from 'react';
import { POPUP_CLOSE_DELAY_MS, type AnchorRect } from './layout';

export interface HoverMenuState {
  openId: string | null;
  anchor: AnchorRect | null;
}

/**
 * The desktop popup's open/close rules: entering a group opens it at once; leaving the group or
 * the popup closes it after 150 ms unless the pointer comes back (to the group or the popup).
 */
export function useHoverMenu(delay = POPUP_CLOSE_DELAY_MS) {
  const [state, setState] = useState<HoverMenuState>({ openId: null, anchor: null });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = useCallback(() => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
  }, []);

  const open = useCallback(
    (id: string, anchor: AnchorRect) => {
      cancelClose();
      setState({ openId: id, anchor });
    },
    [cancelClose],
  );

  const close = useCallback(() => {
    cancelClose();
    setState({ openId: null, anchor: null });
  }, [cancelClose]);

  const scheduleClose = useCallback(() => {
    cancelClose();
    timer.current = setTimeout(() => {
      timer.current = null;
      setState({ openId: null, anchor: null });
    }, delay);
  }, [cancelClose, delay]);

  useEffect(() => cancelClose, [cancelClose]);

  return { ...state, open, close, scheduleClose, cancelClose };
}
