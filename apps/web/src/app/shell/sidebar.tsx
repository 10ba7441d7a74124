import LogoutIcon from '@mui/icons-material/Logout'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useLocation } from 'react-router'
import { PactumLogo } from '../../components/pactum-logo.tsx'
import { useProfileWarning } from '../../features/profile/use-profile-warning.ts'
import { useIsAdmin } from '../../lib/api/me.ts'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'
import { LanguagePicker } from './language-picker.tsx'
import { MainMenu } from './main-menu.tsx'
import { WelcomeLine } from './welcome-line.tsx'

/**
 * Logo, welcome line, log out, main menu and language. The permanent sidebar
 * uses it as the page's banner; the mobile drawer as a labelled region.
 */
export function Sidebar({ as, onNavigate }: { as: 'header' | 'aside'; onNavigate?: () => void }) {
  const { t } = useTranslation()
  const { user, signOut } = useAuth()
  const profileWarning = useProfileWarning()
  const isAdmin = useIsAdmin()
  const { pathname } = useLocation()
  return (
    <Box
      component={as}
      aria-label={as === 'aside' ? t('shell.menu') : undefined}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2, p: 2, minHeight: '100%' }}
    >
      <Link
        component={RouterLink}
        to={namedRoutes.transactions}
        onClick={onNavigate}
        aria-label={t('shell.logoLink')}
        underline="none"
        sx={{ alignSelf: 'flex-start', borderRadius: 1, py: 0.5 }}
      >
        <PactumLogo />
      </Link>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
        <WelcomeLine firstName={user?.profile.givenName} />
        <Button
          size="small"
          startIcon={<LogoutIcon aria-hidden />}
          onClick={() => void signOut()}
          data-testid="logout-button"
          sx={{ ml: -0.75 }}
        >
          {t('shell.logOut')}
        </Button>
      </Box>
      {/* What MUI's Divider draws, without its ~1 kB in the shell's first load (issue 13). */}
      <Box component="hr" sx={{ m: 0, flexShrink: 0, border: 0, borderBottom: 'thin solid', borderColor: 'divider' }} />
      <MainMenu profileWarning={profileWarning} pathname={pathname} onNavigate={onNavigate} showAdmin={isAdmin === true} />
      <Box sx={{ mt: 'auto', pt: 2 }}>
        <LanguagePicker />
      </Box>
    </Box>
  )
}
