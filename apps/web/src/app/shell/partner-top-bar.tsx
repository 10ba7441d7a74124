import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import MenuIcon from '@mui/icons-material/Menu'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import type { PartnerClient } from '@pactum/contracts/partner-clients'
import { useTranslation } from '../../i18n/react.tsx'
import type { ClientColours } from '../../lib/partner-client/client-colours.ts'

/** The app's menu, when the partner hid the mobile navbar that would otherwise open it. */
interface BarMenu {
  open: boolean
  id: string
  onOpen: () => void
}

/** Spec §1: the partner's bar, in its colours, with the way back to its site. */
export function PartnerTopBar({ client, colours, menu }: { client: PartnerClient; colours: ClientColours; menu?: BarMenu | undefined }) {
  const { t } = useTranslation()
  return (
    <Box
      component="nav"
      aria-label={t('partnerClient.barLabel', { name: client.name })}
      data-testid="partner-top-bar"
      sx={{
        bgcolor: colours.barBackground,
        color: colours.barText,
        px: { xs: 2, md: 4 },
        py: menu ? 0.5 : 1.25,
        position: 'relative',
        zIndex: 2,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 1,
      }}
    >
      <Link
        href={client.url}
        color="inherit"
        underline="hover"
        sx={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 1,
          fontWeight: 600,
          '&:focus-visible': { outline: `2px solid ${colours.barText}`, outlineOffset: 2 },
        }}
      >
        <ArrowBackIcon fontSize="small" aria-hidden />
        {t('partnerClient.backTo', { name: client.name })}
      </Link>
      {menu && (
        <IconButton
          color="inherit"
          edge="end"
          aria-label={t('shell.openMenu')}
          aria-controls={menu.id}
          aria-expanded={menu.open}
          onClick={menu.onOpen}
          data-testid="partner-bar-menu-button"
          sx={{ '&:focus-visible': { outline: `2px solid ${colours.barText}` } }}
        >
          <MenuIcon />
        </IconButton>
      )}
    </Box>
  )
}
