import Logout from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Fab from '@mui/material/Fab';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { CompanyLogo } from './BrandMark';
import { MENU_ICONS } from './icons';
import { EXPAND_SIDEBAR_EVENT, RAIL_WIDTH, SALES_ORDER_FULLSCREEN_EVENT, fullscreenFlag } from './layout';
import { MENU, activeGroupId, activeSubPath, groupPath, type MenuItem } from './menu';
import { MenuPopup } from './MenuPopup';
import { COMPANY_PLACEHOLDER, type ShellProps } from './types';
import { useHoverMenu } from './useHoverMenu';

const RAIL_BG = '#0d1b2a';
const RAIL_FG = '#e0e6ee';

/** Hidden/visible rail state with the expand-sidebar and sales-order fullscreen-change events. */
export function useRailVisibility() {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const onExpand = () => setHidden(false);
    const onFullscreen = (e: Event) => {
      const flag = fullscreenFlag(e);
      if (flag !== null) setHidden(flag);
    };
    window.addEventListener(EXPAND_SIDEBAR_EVENT, onExpand);
    window.addEventListener(SALES_ORDER_FULLSCREEN_EVENT, onFullscreen);
    return () => {
      window.removeEventListener(EXPAND_SIDEBAR_EVENT, onExpand);
      window.removeEventListener(SALES_ORDER_FULLSCREEN_EVENT, onFullscreen);
    };
  }, []);
  return [hidden, setHidden] as const;
}

export function DesktopShell({ companyName, logoUrl, userName, onLogout, children }: ShellProps) {
  const [hidden, setHidden] = useRailVisibility();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const hover = useHoverMenu();
  const [keyboardOpen, setKeyboardOpen] = useState(false);
  const activePath = activeSubPath(pathname);
  const activeGroup = activeGroupId(pathname);
  const name = companyName?.trim() || COMPANY_PLACEHOLDER;
  const openGroup = MENU.find((g) => g.id === hover.openId) ?? null;

  const anchorOf = (el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, left: r.left, right: r.right };
  };

  const onGroupEnter = (group: MenuItem, e: MouseEvent<HTMLElement>) => {
    if (group.subItems.length === 0) {
      hover.close();
      return;
    }
    setKeyboardOpen(false);
    hover.open(group.id, anchorOf(e.currentTarget));
  };

  const onGroupClick = (group: MenuItem, e: MouseEvent<HTMLElement>) => {
    const path = groupPath(group);
    if (path) {
      hover.close();
      navigate(path);
      return;
    }
    // Click (or tap on a touch screen) toggles the popup too.
    if (hover.openId === group.id) hover.close();
    else hover.open(group.id, anchorOf(e.currentTarget));
  };

  const onGroupKeyDown = (group: MenuItem, e: KeyboardEvent<HTMLElement>) => {
    if (group.subItems.length && (e.key === 'ArrowRight' || e.key === 'ArrowDown')) {
      e.preventDefault();
      setKeyboardOpen(true);
      hover.open(group.id, anchorOf(e.currentTarget));
    } else if (e.key === 'Escape') hover.close();
  };

  // Enter/Space on a group with sub-pages opens the popup with focus in it.
  const onGroupKeyActivate = (group: MenuItem, e: KeyboardEvent<HTMLElement>) => {
    if (group.subItems.length && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      setKeyboardOpen(true);
      hover.open(group.id, anchorOf(e.currentTarget));
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      {!hidden && (
        <Box
          component="nav"
          aria-label="Main menu"
          data-testid="rail"
          sx={{
            position: 'fixed', top: 0, left: 0, bottom: 0, width: RAIL_WIDTH, bgcolor: RAIL_BG, color: RAIL_FG,
            display: 'flex', flexDirection: 'column', alignItems: 'stretch', zIndex: (t) => t.zIndex.appBar,
          }}
        >
          <Tooltip title="Click to hide menu" placement="right">
            <ButtonBase
              aria-label="Click to hide menu"
              onClick={() => {
                hover.close();
                setHidden(true);
              }}
              sx={{ height: 72, flexShrink: 0, display: 'flex', justifyContent: 'center', '&:focus-visible': { outline: '2px solid #90caf9' } }}
            >
              <CompanyLogo logoUrl={logoUrl} companyName={name} size={44} />
            </ButtonBase>
          </Tooltip>
          <Box
            component="ul"
            sx={{ listStyle: 'none', m: 0, p: 0, flex: 1, overflowY: 'auto', overflowX: 'hidden', scrollbarWidth: 'none' }}
          >
            {MENU.map((group) => {
              const Icon = MENU_ICONS[group.icon];
              const isActive = activeGroup === group.id;
              const isOpen = hover.openId === group.id;
              const hasSubs = group.subItems.length > 0;
              return (
                <li key={group.id}>
                  <ButtonBase
                    data-testid={`rail-group-${group.id}`}
                    aria-label={group.title}
                    aria-haspopup={hasSubs ? 'dialog' : undefined}
                    aria-expanded={hasSubs ? isOpen : undefined}
                    aria-current={!hasSubs && isActive ? 'page' : undefined}
                    onMouseEnter={(e) => onGroupEnter(group, e)}
                    onMouseLeave={() => hasSubs && hover.scheduleClose()}
                    onClick={(e) => onGroupClick(group, e)}
                    onKeyDown={(e) => {
                      onGroupKeyDown(group, e);
                      onGroupKeyActivate(group, e);
                    }}
                    sx={{
                      width: '100%', height: 60, display: 'flex', flexDirection: 'column', gap: 0.25,
                      color: isActive || isOpen ? '#fff' : RAIL_FG,
                      bgcolor: isOpen ? 'rgba(255,255,255,0.12)' : isActive ? 'rgba(255,255,255,0.08)' : 'transparent',
                      borderLeft: `3px solid ${isActive ? lighten(group.color) : 'transparent'}`,
                      '&:hover': { bgcolor: 'rgba(255,255,255,0.12)' },
                      '&:focus-visible': { outline: '2px solid #90caf9', outlineOffset: -2 },
                    }}
                  >
                    <Icon fontSize="small" />
                    <Typography component="span" sx={{ fontSize: 11, lineHeight: 1.2, fontWeight: 600 }} aria-hidden>
                      {group.buttonLabel ?? group.title}
                    </Typography>
                  </ButtonBase>
                </li>
              );
            })}
          </Box>
          <Box sx={{ borderTop: '1px solid rgba(255,255,255,0.12)', py: 1, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
            <Tooltip title={`${name} — company settings`} placement="right">
              <ButtonBase
                data-testid="rail-company"
                onClick={() => navigate('/company-settings')}
                aria-label={`Company settings: ${name}`}
                sx={{ px: 0.5, py: 0.75, color: RAIL_FG, '&:hover': { bgcolor: 'rgba(255,255,255,0.08)' }, '&:focus-visible': { outline: '2px solid #90caf9' } }}
              >
                <Typography component="span" sx={{ fontSize: 11, fontWeight: 700, lineHeight: 1.2, textAlign: 'center', wordBreak: 'break-word', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                  {name}
                </Typography>
              </ButtonBase>
            </Tooltip>
            <Tooltip title={`Log out ${userName}`} placement="right">
              <ButtonBase
                data-testid="rail-logout"
                onClick={onLogout}
                aria-label={`Log out ${userName}`}
                sx={{ display: 'flex', flexDirection: 'column', py: 0.75, color: RAIL_FG, '&:hover': { bgcolor: 'rgba(255,255,255,0.08)' }, '&:focus-visible': { outline: '2px solid #90caf9' } }}
              >
                <Logout fontSize="small" />
                <Typography component="span" sx={{ fontSize: 10, lineHeight: 1.2, maxWidth: 72, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {userName}
                </Typography>
              </ButtonBase>
            </Tooltip>
          </Box>
        </Box>
      )}
      {hidden && (
        <Tooltip title="Click to show menu" placement="right">
          <Fab
            size="medium"
            aria-label="Click to show menu"
            data-testid="show-menu"
            onClick={() => setHidden(false)}
            sx={{ position: 'fixed', left: 16, bottom: 16, bgcolor: '#fff', zIndex: (t) => t.zIndex.appBar, '&:hover': { bgcolor: '#f1f4f8' } }}
          >
            <CompanyLogo logoUrl={logoUrl} companyName={name} size={32} />
          </Fab>
        </Tooltip>
      )}
      {openGroup && hover.anchor && !hidden && (
        <MenuPopup
          group={openGroup}
          anchor={hover.anchor}
          activePath={activePath}
          autoFocus={keyboardOpen}
          onPointerEnter={hover.cancelClose}
          onPointerLeave={hover.scheduleClose}
          onNavigate={hover.close}
          onEscape={hover.close}
        />
      )}
      <Box component="main" id="main-content" sx={{ ml: hidden ? 0 : `${RAIL_WIDTH}px`, minHeight: '100vh', minWidth: 0 }}>
        {children}
      </Box>
    </Box>
  );
}

function lighten(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(c + (255 - c) * 0.45);
  const r = mix((n >> 16) & 255), g = mix((n >> 8) & 255), b = mix(n & 255);
  return `rgb(${r},${g},${b})`;
}
