import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Portal from '@mui/material/Portal';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { POPUP_HEADER_HEIGHT, POPUP_ROW_HEIGHT, popupPosition, type AnchorRect } from './layout';
import type { MenuItem } from './menu';

export interface MenuPopupProps {
  group: MenuItem;
  anchor: AnchorRect;
  activePath: string | null;
  onPointerEnter: () => void;
  onPointerLeave: () => void;
  onNavigate: () => void;
  onEscape: () => void;
  autoFocus?: boolean;
}

/** Scroll shadows: which edges have more content beyond them. */
function useScrollShadows() {
  const ref = useRef<HTMLDivElement | null>(null);
  const [edges, setEdges] = useState({ top: false, bottom: false });
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const top = el.scrollTop > 1;
    const bottom = el.scrollTop + el.clientHeight < el.scrollHeight - 1;
    setEdges((prev) => (prev.top === top && prev.bottom === bottom ? prev : { top, bottom }));
  }, []);
  useLayoutEffect(update);
  return { ref, edges, update };
}

export function MenuPopup({ group, anchor, activePath, onPointerEnter, onPointerLeave, onNavigate, onEscape, autoFocus }: MenuPopupProps) {
  const [viewport, setViewport] = useState({ width: window.innerWidth, height: window.innerHeight });
  useEffect(() => {
    const onResize = () => setViewport({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const pos = popupPosition(anchor, group.subItems.length, viewport);
  const { ref, edges, update } = useScrollShadows();
  const listRef = useRef<HTMLUListElement | null>(null);

  useEffect(() => {
    if (autoFocus) listRef.current?.querySelector<HTMLAnchorElement>('a[data-menu-link]')?.focus();
  }, [autoFocus, group.id]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onEscape();
      return;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const links = Array.from(listRef.current?.querySelectorAll<HTMLAnchorElement>('a[data-menu-link]') ?? []);
      const i = links.indexOf(document.activeElement as HTMLAnchorElement);
      const next = e.key === 'ArrowDown' ? Math.min(links.length - 1, i + 1) : Math.max(0, i - 1);
      links[next]?.focus();
      e.preventDefault();
    }
  };

  const titleId = `menu-popup-title-${group.id}`;
  return (
    <Portal>
      <Paper
        elevation={8}
        role="dialog"
        aria-labelledby={titleId}
        data-testid="menu-popup"
        data-placement={pos.placement}
        onMouseEnter={onPointerEnter}
        onMouseLeave={onPointerLeave}
        onKeyDown={onKeyDown}
        sx={{
          position: 'fixed',
          top: pos.top,
          left: pos.left,
          width: pos.width,
          maxHeight: pos.maxHeight,
          display: 'flex',
          flexDirection: 'column',
          overflow: 'hidden',
          zIndex: (t) => t.zIndex.modal + 1,
          borderRadius: 2,
        }}
      >
        <Box
          sx={{
            height: POPUP_HEADER_HEIGHT,
            minHeight: POPUP_HEADER_HEIGHT,
            px: 2,
            display: 'flex',
            alignItems: 'center',
            borderBottom: 1,
            borderColor: 'divider',
            borderLeft: `4px solid ${group.color}`,
          }}
        >
          <Typography id={titleId} component="h2" variant="subtitle1" noWrap sx={{ fontWeight: 700 }}>
            {group.title}
          </Typography>
        </Box>
        <Box sx={{ position: 'relative', minHeight: 0, flex: 1, display: 'flex' }}>
          <Box
            aria-hidden
            data-testid="scroll-shadow-top"
            sx={{
              position: 'absolute', top: 0, left: 0, right: 0, height: 12, pointerEvents: 'none', zIndex: 1,
              background: 'linear-gradient(rgba(0,0,0,0.16), transparent)',
              opacity: edges.top ? 1 : 0, transition: 'opacity 120ms',
            }}
          />
          <Box ref={ref} onScroll={update} sx={{ overflowY: 'auto', flex: 1 }}>
            <Box component="ul" ref={listRef} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {group.subItems.map((item) => {
                const active = item.path === activePath;
                return (
                  <Box
                    component="li"
                    key={item.path}
                    sx={{
                      position: 'relative',
                      height: POPUP_ROW_HEIGHT,
                      '&:hover .open-new, &:focus-within .open-new': { opacity: 1 },
                    }}
                  >
                    <Box
                      component={RouterLink}
                      to={item.path}
                      data-menu-link
                      aria-current={active ? 'page' : undefined}
                      onClick={onNavigate}
                      sx={{
                        height: '100%',
                        display: 'flex',
                        flexDirection: 'column',
                        justifyContent: 'center',
                        pl: 2,
                        pr: 6,
                        textDecoration: 'none',
                        color: 'text.primary',
                        bgcolor: active ? 'action.selected' : 'transparent',
                        borderLeft: active ? `4px solid ${group.color}` : '4px solid transparent',
                        '&:hover': { bgcolor: active ? 'action.selected' : 'action.hover' },
                        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
                      }}
                    >
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                        <Typography variant="body2" noWrap sx={{ fontWeight: active ? 700 : 600 }}>
                          {item.title}
                        </Typography>
                        {item.beta && (
                          <Chip label="BETA" size="small" color="secondary" sx={{ height: 18, fontSize: 10, fontWeight: 700 }} />
                        )}
                      </Box>
                      {item.description && (
                        <Typography variant="caption" color="text.secondary" noWrap>
                          {item.description}
                        </Typography>
                      )}
                    </Box>
                    <Tooltip title="Open in New Tab" placement="top">
                      <IconButton
                        className="open-new"
                        size="small"
                        aria-label={`Open in New Tab: ${item.title}`}
                        onClick={() => {
                          window.open(item.path, '_blank', 'noopener');
                          onNavigate();
                        }}
                        sx={{ position: 'absolute', right: 8, top: '50%', transform: 'translateY(-50%)', opacity: 0, transition: 'opacity 120ms' }}
                      >
                        <OpenInNew fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Box>
                );
              })}
            </Box>
          </Box>
          <Box
            aria-hidden
            data-testid="scroll-shadow-bottom"
            sx={{
              position: 'absolute', bottom: 0, left: 0, right: 0, height: 12, pointerEvents: 'none', zIndex: 1,
              background: 'linear-gradient(transparent, rgba(0,0,0,0.16))',
              opacity: edges.bottom ? 1 : 0, transition: 'opacity 120ms',
            }}
          />
        </Box>
      </Paper>
    </Portal>
  );
}
