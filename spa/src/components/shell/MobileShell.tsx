import ArrowBack from '@mui/icons-material/ArrowBack';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Close from '@mui/icons-material/Close';
import MoreHoriz from '@mui/icons-material/MoreHoriz';
import Logout from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { CompanyLogo } from './BrandMark';
import { MENU_ICONS } from './icons';
import { bottomBarSlots, MOBILE_BAR_HEIGHT, MOBILE_BOTTOM_MARGIN, MOBILE_GROUP_BUTTON_WIDTH, SHEET_MAX_HEIGHT, SHEET_MAX_WIDTH } from './layout';
import { MENU, activeGroupId, activeSubPath, groupPath, type MenuItem } from './menu';
import { COMPANY_PLACEHOLDER, type ShellProps } from './types';

const BAR_BG = '#0d1b2a';
// Layering: the sheet's backdrop, the sheet and the bar sit in the drawer band (1200–1202), above the
// sticky header (appBar) but below MUI dialogs, menus and popovers (modal, 1300) so a full-screen
// form's buttons are never under the bar.
const TOP_BAR_HEIGHT = 52;
const MORE = 'more';

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const follow = () => setWidth(window.innerWidth);
    window.addEventListener('resize', follow);
    return () => window.removeEventListener('resize', follow);
  }, []);
  return width;
}

/**
 * Phone layout (≤ 768px): a top strip with the company and logout, a fixed bottom bar of group
 * icons, and a bottom sheet for a group's sub-pages. The sheet closes on the backdrop, on its close
 * control, or on tapping the same group again.
 */
export function MobileShell({ companyName, logoUrl, userName, onLogout, children }: ShellProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [sheetId, setSheetId] = useState<string | null>(null);
  const name = companyName?.trim() || COMPANY_PLACEHOLDER;
  const activeGroup = activeGroupId(pathname);
  const activePath = activeSubPath(pathname);
  // The groups that fit as buttons; the rest are behind 'More' (a sheet listing them).
  const slots = bottomBarSlots(useWindowWidth(), MENU.length);
  const barGroups = MENU.slice(0, slots.shown);
  const moreGroups = slots.more ? MENU.slice(slots.shown) : [];
  const moreOpen = sheetId === MORE;
  const moreActive = moreGroups.some((g) => g.id === activeGroup);
  const sheetGroup = MENU.find((g) => g.id === sheetId) ?? null;
  // A group opened from 'More' offers the way back to it.
  const fromMore = !!sheetGroup && moreGroups.includes(sheetGroup);
  const sheetOpen = moreOpen || !!sheetGroup;

  // Going to another page closes the sheet.
  const [sheetPath, setSheetPath] = useState(pathname);
  if (sheetPath !== pathname) {
    setSheetPath(pathname);
    setSheetId(null);
  }
  useEffect(() => {
    if (!sheetId) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setSheetId(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [sheetId]);

  const onGroupTap = (group: MenuItem) => {
    const path = groupPath(group);
    if (path) {
      setSheetId(null);
      navigate(path);
      return;
    }
    setSheetId((current) => (current === group.id ? null : group.id));
  };
  const onMoreTap = () => setSheetId((current) => (current === MORE || fromMore ? null : MORE));

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="header"
        sx={{
          position: 'sticky', top: 0, zIndex: (t) => t.zIndex.appBar, height: TOP_BAR_HEIGHT, px: 1.5,
          display: 'flex', alignItems: 'center', gap: 1, bgcolor: BAR_BG, color: '#fff',
        }}
      >
        <ButtonBase
          onClick={() => navigate('/company-settings')}
          aria-label={`Company settings: ${name}`}
          data-testid="mobile-company"
          sx={{ display: 'flex', gap: 1, alignItems: 'center', minWidth: 0, flex: 1, justifyContent: 'flex-start', borderRadius: 1, p: 0.5 }}
        >
          <CompanyLogo logoUrl={logoUrl} companyName={name} size={32} />
          <Typography component="span" noWrap sx={{ fontWeight: 700 }}>
            {name}
          </Typography>
        </ButtonBase>
        <ButtonBase
          onClick={onLogout}
          aria-label={`Log out ${userName}`}
          data-testid="mobile-logout"
          sx={{ display: 'flex', gap: 0.75, alignItems: 'center', px: 1, py: 0.75, borderRadius: 1, maxWidth: '45%' }}
        >
          <Typography component="span" variant="body2" noWrap>
            {userName}
          </Typography>
          <Logout fontSize="small" />
        </ButtonBase>
      </Box>

      <Box component="main" id="main-content" sx={{ pb: `${MOBILE_BOTTOM_MARGIN}px`, minWidth: 0 }}>
        {children}
      </Box>

      {sheetOpen && (
        <Box
          data-testid="sheet-backdrop"
          onClick={() => setSheetId(null)}
          aria-hidden
          sx={{ position: 'fixed', inset: 0, bottom: MOBILE_BAR_HEIGHT, bgcolor: 'rgba(0,0,0,0.5)', zIndex: (t) => t.zIndex.drawer }}
        />
      )}
      {sheetOpen && (
        <Paper
          role="dialog"
          aria-modal="true"
          aria-labelledby="mobile-sheet-title"
          data-testid="bottom-sheet"
          elevation={12}
          sx={{
            position: 'fixed', bottom: MOBILE_BAR_HEIGHT, left: '50%', transform: 'translateX(-50%)',
            width: `min(${SHEET_MAX_WIDTH}px, 100vw)`, maxWidth: SHEET_MAX_WIDTH, maxHeight: SHEET_MAX_HEIGHT,
            display: 'flex', flexDirection: 'column', borderRadius: '16px 16px 0 0', zIndex: (t) => t.zIndex.drawer + 1,
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: 2, height: 50, flexShrink: 0, borderBottom: 1, borderColor: 'divider', borderTop: `4px solid ${sheetGroup?.color ?? '#546e7a'}`, borderRadius: '16px 16px 0 0' }}>
            {fromMore && (
              <IconButton aria-label="Back to More" onClick={() => setSheetId(MORE)} edge="start" size="small">
                <ArrowBack fontSize="small" />
              </IconButton>
            )}
            <Typography id="mobile-sheet-title" component="h2" variant="subtitle1" sx={{ fontWeight: 700, flex: 1 }} noWrap>
              {sheetGroup ? sheetGroup.title : 'More'}
            </Typography>
            <IconButton aria-label="Close menu" onClick={() => setSheetId(null)} edge="end">
              <Close />
            </IconButton>
          </Box>
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, overflowY: 'auto' }}>
            {sheetGroup
              ? sheetGroup.subItems.map((item) => {
                  const active = item.path === activePath;
                  return (
                    <li key={item.path}>
                      <Box
                        component={RouterLink}
                        to={item.path}
                        aria-current={active ? 'page' : undefined}
                        onClick={() => setSheetId(null)}
                        sx={{
                          display: 'flex', flexDirection: 'column', justifyContent: 'center', minHeight: 56, px: 2,
                          textDecoration: 'none', color: 'text.primary', borderLeft: `4px solid ${active ? sheetGroup.color : 'transparent'}`,
                          bgcolor: active ? 'action.selected' : 'transparent',
                        }}
                      >
                        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                          <Typography variant="body2" sx={{ fontWeight: active ? 700 : 600 }}>
                            {item.title}
                          </Typography>
                          {item.beta && <Chip label="BETA" size="small" color="secondary" sx={{ height: 18, fontSize: 10, fontWeight: 700 }} />}
                        </Box>
                        {item.description && (
                          <Typography variant="caption" color="text.secondary">
                            {item.description}
                          </Typography>
                        )}
                      </Box>
                    </li>
                  );
                })
              : moreGroups.map((group) => {
                  const Icon = MENU_ICONS[group.icon];
                  const hasSubs = group.subItems.length > 0;
                  const active = activeGroup === group.id;
                  return (
                    <li key={group.id}>
                      <ButtonBase
                        data-testid={`more-group-${group.id}`}
                        aria-haspopup={hasSubs ? 'dialog' : undefined}
                        aria-current={!hasSubs && active ? 'page' : undefined}
                        onClick={() => onGroupTap(group)}
                        sx={{
                          width: '100%', minHeight: 56, px: 2, gap: 1.5, justifyContent: 'flex-start', textAlign: 'left',
                          borderLeft: `4px solid ${active ? group.color : 'transparent'}`, bgcolor: active ? 'action.selected' : 'transparent',
                        }}
                      >
                        <Icon sx={{ color: group.color }} aria-hidden />
                        <Typography component="span" variant="body2" sx={{ fontWeight: active ? 700 : 600, flex: 1 }}>
                          {group.title}
                        </Typography>
                        {hasSubs && <ChevronRight fontSize="small" color="action" aria-hidden />}
                      </ButtonBase>
                    </li>
                  );
                })}
          </Box>
        </Paper>
      )}

      <Box
        component="nav"
        aria-label="Main menu"
        data-testid="bottom-bar"
        sx={{
          position: 'fixed', left: 0, right: 0, bottom: 0, height: MOBILE_BAR_HEIGHT, bgcolor: BAR_BG,
          display: 'flex', justifyContent: 'center', overflow: 'hidden', zIndex: (t) => t.zIndex.drawer + 2,
          boxShadow: '0 -2px 8px rgba(0,0,0,0.2)',
        }}
      >
        {barGroups.map((group) => {
          const Icon = MENU_ICONS[group.icon];
          const open = sheetId === group.id;
          const active = activeGroup === group.id;
          const hasSubs = group.subItems.length > 0;
          return (
            <ButtonBase
              key={group.id}
              data-testid={`bar-group-${group.id}`}
              aria-label={group.title}
              aria-haspopup={hasSubs ? 'dialog' : undefined}
              aria-expanded={hasSubs ? open : undefined}
              aria-current={!hasSubs && active ? 'page' : undefined}
              onClick={() => onGroupTap(group)}
              sx={{
                width: MOBILE_GROUP_BUTTON_WIDTH, minWidth: MOBILE_GROUP_BUTTON_WIDTH, height: '100%', flexShrink: 0,
                display: 'flex', flexDirection: 'column', gap: 0.25, color: open || active ? '#fff' : '#c5cfdb',
                bgcolor: open ? 'rgba(255,255,255,0.14)' : 'transparent',
                borderTop: `3px solid ${active ? '#90caf9' : 'transparent'}`,
              }}
            >
              <Icon fontSize="small" />
              <Typography component="span" sx={{ fontSize: 10.5, fontWeight: 600, lineHeight: 1.1 }} aria-hidden>
                {group.buttonLabel ?? group.title}
              </Typography>
            </ButtonBase>
          );
        })}
        {slots.more && (
          <ButtonBase
            data-testid="bar-group-more"
            aria-label="More"
            aria-haspopup="dialog"
            aria-expanded={moreOpen || fromMore}
            onClick={onMoreTap}
            sx={{
              width: MOBILE_GROUP_BUTTON_WIDTH, minWidth: MOBILE_GROUP_BUTTON_WIDTH, height: '100%', flexShrink: 0,
              display: 'flex', flexDirection: 'column', gap: 0.25, color: moreOpen || fromMore || moreActive ? '#fff' : '#c5cfdb',
              bgcolor: moreOpen || fromMore ? 'rgba(255,255,255,0.14)' : 'transparent',
              borderTop: `3px solid ${moreActive ? '#90caf9' : 'transparent'}`,
            }}
          >
            <MoreHoriz fontSize="small" />
            <Typography component="span" sx={{ fontSize: 10.5, fontWeight: 600, lineHeight: 1.1 }} aria-hidden>
              More
            </Typography>
          </ButtonBase>
        )}
      </Box>
    </Box>
  );
}
