import MenuIcon from '@mui/icons-material/Menu'
import AppBar from '@mui/material/AppBar'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import Toolbar from '@mui/material/Toolbar'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { PactumLogo } from '../../components/pactum-logo.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'

export function MobileTopBar({ menuOpen, menuId, onOpenMenu }: { menuOpen: boolean; menuId: string; onOpenMenu: () => void }) {
  const { t } = useTranslation()
  return (
    <AppBar position="fixed" color="primary">
      <Toolbar sx={{ gap: 1 }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label={t('shell.openMenu')}
          aria-controls={menuId}
          aria-expanded={menuOpen}
          onClick={onOpenMenu}
          data-testid="open-menu-button"
        >
          <MenuIcon />
        </IconButton>
        <Link component={RouterLink} to={namedRoutes.transactions} aria-label={t('shell.logoLink')} underline="none">
          <PactumLogo inverted />
        </Link>
      </Toolbar>
    </AppBar>
  )
}
