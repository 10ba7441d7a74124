import Box from '@mui/material/Box'
import Container from '@mui/material/Container'
import Drawer from '@mui/material/Drawer'
import Toolbar from '@mui/material/Toolbar'
import useMediaQuery from '@mui/material/useMediaQuery'
import { Suspense, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet, useLocation } from 'react-router'
import { StatusMessage } from '../../components/status-message.tsx'
import { mobileBreakpointPx, sidebarWidthPx } from '../../lib/constants.ts'
import { OnboardingDialogs } from '../../features/onboarding/onboarding-dialogs.tsx'
import { ChunkErrorBoundary } from '../chunk-error-boundary.tsx'
import { MobileTopBar } from './mobile-top-bar.tsx'
import { routeArea } from './route-area.ts'
import { RouteBackground } from './route-background.tsx'
import { Sidebar } from './sidebar.tsx'
import { mainContentId, SkipLink } from './skip-link.tsx'

/** Sidebar (or top bar + drawer below 960 px), background art and the current page. */
export function AppShell() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const wide = useMediaQuery(`(min-width:${mobileBreakpointPx}px)`, { noSsr: true })
  const [menuOpen, setMenuOpen] = useState(false)
  const menuId = useId()

  // A route change (including one from the drawer itself) closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not a value read here
  useEffect(() => setMenuOpen(false), [pathname])

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <OnboardingDialogs />
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{
            width: sidebarWidthPx,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: sidebarWidthPx, boxSizing: 'border-box' },
          }}
        >
          <Sidebar as="header" />
        </Drawer>
      ) : (
        <>
          <MobileTopBar menuOpen={menuOpen} menuId={menuId} onOpenMenu={() => setMenuOpen(true)} />
          <Drawer
            id={menuId}
            variant="temporary"
            open={menuOpen}
            onClose={() => setMenuOpen(false)}
            slotProps={{ paper: { 'aria-label': t('shell.menu') } }}
            sx={{ '& .MuiDrawer-paper': { width: Math.min(sidebarWidthPx + 40, 320), boxSizing: 'border-box' } }}
          >
            <Sidebar as="aside" onNavigate={() => setMenuOpen(false)} />
          </Drawer>
        </>
      )}
      <Box
        component="main"
        id={mainContentId}
        tabIndex={-1}
        sx={{ flexGrow: 1, minWidth: 0, position: 'relative', outline: 'none' }}
      >
        <RouteBackground area={routeArea(pathname)} />
        {!wide && <Toolbar />}
        <Container maxWidth="md" sx={{ position: 'relative', zIndex: 1, py: { xs: 3, md: 6 } }}>
          <ChunkErrorBoundary key={pathname}>
            <Suspense fallback={<StatusMessage busy title={t('app.loading')} />}>
              <Outlet />
            </Suspense>
          </ChunkErrorBoundary>
        </Container>
      </Box>
    </Box>
  )
}
