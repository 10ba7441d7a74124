import Box from '@mui/material/Box'
import Container from '@mui/material/Container'
import Toolbar from '@mui/material/Toolbar'
import { createTheme, ThemeProvider } from '@mui/material/styles'
import useMediaQuery from '@mui/material/useMediaQuery'
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Navigate, Outlet, useLocation } from 'react-router'
import { Deferred } from '../../components/deferred.tsx'
import { FallbackOnError } from '../../components/fallback-on-error.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { mobileBreakpointPx, sidebarWidthPx } from '../../lib/constants.ts'
import { GuidedTourLauncherProvider } from '../../lib/guided-tour-launcher.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'
import { isRouteAllowed } from '../../lib/partner-client/allowed-routes.ts'
import { clientColours } from '../../lib/partner-client/client-colours.ts'
import { captureClientId, savedClientId } from '../../lib/partner-client/client-id-memory.ts'
import { usePartnerClient } from '../../lib/partner-client/partner-client-query.ts'
import { GuidedTour } from '../../features/tour/guided-tour.tsx'
import { OnboardingDialogs } from '../../features/onboarding/onboarding-dialogs.tsx'
import { ChunkErrorBoundary } from '../chunk-error-boundary.tsx'
import { MobileTopBar } from './mobile-top-bar.tsx'
import { routeArea } from './route-area.ts'
import { RouteBackground } from './route-background.tsx'
import { Sidebar } from './sidebar.tsx'
import { mainContentId, SkipLink } from './skip-link.tsx'
import { theme as baseTheme } from '../theme.ts'

// Only phones open it, and only when asked: Drawer's modal machinery stays out of the first load.
// Only a partner's visitors see it, once the partner's settings are in: not in everyone's first load.
const PartnerTopBar = lazy(() => import('./partner-top-bar.tsx').then((module) => ({ default: module.PartnerTopBar })))
const MobileMenuDrawer = lazy(() => import('./mobile-menu-drawer.tsx').then((module) => ({ default: module.MobileMenuDrawer })))

/**
 * Sidebar (or top bar + drawer below 960 px), background art and the current
 * page; under a partner client (spec §1) its colours, its top bar, its
 * allowed routes and, if it says so, no mobile navbar: the menu button then
 * sits in the partner's bar, so language, profile and sign-out stay in reach.
 */
export function AppShell() {
  const { t } = useTranslation()
  const { pathname, search } = useLocation()
  // A `?client_id=` on an in-app link counts as much as one at startup.
  const clientId = useMemo(() => {
    captureClientId(search)
    return savedClientId()
  }, [search])
  const client = usePartnerClient(clientId)
  const colours = useMemo(() => (client ? clientColours(client.background_color, client.text_color) : null), [client])
  const clientTheme = useMemo(
    () => (colours?.primary ? createTheme(baseTheme, { palette: { primary: colours.primary } }) : null),
    [colours],
  )
  const wide = useMediaQuery(`(min-width:${mobileBreakpointPx}px)`, { noSsr: true })
  const [menuOpen, setMenuOpen] = useState(false)
  const menuId = useId()

  // A route change (including one from the drawer itself) closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not a value read here
  useEffect(() => setMenuOpen(false), [pathname])

  if (client && !isRouteAllowed(pathname, client.routes, namedRoutes.transactions)) {
    return <Navigate to={namedRoutes.transactions} replace />
  }

  const shell = (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <OnboardingDialogs />
      <GuidedTour />
      {wide ? (
        // What a permanent MUI Drawer renders (a fixed, bordered paper beside a spacer), without Drawer's modal code.
        // The spacer is painted as the panel too: it runs the page's whole height, so a long page (or a
        // full-page capture, where the fixed panel is one window high) shows no end to the sidebar.
        <Box
          data-testid="sidebar-column"
          sx={{ width: sidebarWidthPx, flexShrink: 0, bgcolor: 'background.paper', borderRight: 1, borderColor: 'divider' }}
        >
          <Box
            sx={{
              position: 'fixed',
              top: 0,
              left: 0,
              zIndex: 'drawer',
              width: sidebarWidthPx,
              height: '100%',
              overflowY: 'auto',
              boxSizing: 'border-box',
              bgcolor: 'background.paper',
              borderRight: 1,
              borderColor: 'divider',
            }}
          >
            <Sidebar as="header" />
          </Box>
        </Box>
      ) : (
        <>
          {/* A partner that hides the mobile navbar still leaves the menu reachable, from its own bar. */}
          {!client?.mobile_navbar_hidden && <MobileTopBar menuOpen={menuOpen} menuId={menuId} onOpenMenu={() => setMenuOpen(true)} />}
          <Deferred when={menuOpen}>
            <MobileMenuDrawer id={menuId} open={menuOpen} onClose={() => setMenuOpen(false)} />
          </Deferred>
        </>
      )}
      <Box component="main" id={mainContentId} tabIndex={-1} sx={{ flexGrow: 1, minWidth: 0, position: 'relative', outline: 'none' }}>
        {!wide && !client?.mobile_navbar_hidden && <Toolbar />}
        {client && colours && (
          <FallbackOnError fallback={null}>
            <Suspense fallback={null}>
              <PartnerTopBar
                client={client}
                colours={colours}
                menu={!wide && client.mobile_navbar_hidden ? { open: menuOpen, id: menuId, onOpen: () => setMenuOpen(true) } : undefined}
              />
            </Suspense>
          </FallbackOnError>
        )}
        <RouteBackground area={routeArea(pathname)} />
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
  // Always the same provider, with the app's theme until the client's arrives: a provider added only then
  // would remount everything below it, the page too, and lose what the person had already typed or chosen.
  return (
    <ThemeProvider theme={clientTheme ?? sameTheme}>
      <GuidedTourLauncherProvider>{shell}</GuidedTourLauncherProvider>
    </ThemeProvider>
  )
}

/** The surrounding theme, unchanged (MUI calls a function theme with it). */
const sameTheme = <T,>(outer: T): T => outer
