import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined'
import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined'
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined'
import PersonOutlineIcon from '@mui/icons-material/PersonOutlineOutlined'
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined'
import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded'
import Box from '@mui/material/Box'
import ListItemButton from '@mui/material/ListItemButton'
import type { SvgIconComponent } from '@mui/icons-material'
import { useTranslation } from '../../i18n/react.tsx'
import { NavLink } from 'react-router'
import { namedRoutes } from '../../lib/named-routes.ts'
import { type MenuColour, menuColours } from './menu-colours.ts'

interface MenuEntry {
  id: 'create-transaction' | 'join-transaction' | 'my-transactions' | 'my-profile' | 'admin'
  labelKey: string
  to: string
  colour: MenuColour
  Icon: SvgIconComponent
}

const entries: MenuEntry[] = [
  {
    id: 'create-transaction',
    labelKey: 'menu.createTransaction',
    to: namedRoutes.createTransaction,
    colour: 'green',
    Icon: AddCircleOutlineIcon,
  },
  {
    id: 'join-transaction',
    labelKey: 'menu.joinTransaction',
    to: namedRoutes.joinTransaction,
    colour: 'blue',
    Icon: GroupAddOutlinedIcon,
  },
  {
    id: 'my-transactions',
    labelKey: 'menu.myTransactions',
    to: namedRoutes.transactions,
    colour: 'pink',
    Icon: ReceiptLongOutlinedIcon,
  },
  { id: 'my-profile', labelKey: 'menu.myProfile', to: namedRoutes.profile, colour: 'yellow', Icon: PersonOutlineIcon },
]

/** Shown to admins only (the API refuses everyone else anyway). */
const adminEntry: MenuEntry = {
  id: 'admin',
  labelKey: 'admin.menu',
  to: namedRoutes.admin,
  colour: 'blue',
  Icon: AdminPanelSettingsOutlinedIcon,
}

// /build-transaction is the same screen as /create-transaction, so it lights the same entry.
function isAlsoActive(entry: MenuEntry, pathname: string): boolean {
  return entry.id === 'create-transaction' && pathname.startsWith(namedRoutes.buildTransaction)
}

export function MainMenu({
  profileWarning,
  pathname,
  onNavigate,
  showAdmin = false,
}: {
  /** Shows the warning icon on "My profile" (details missing or payout requirements due). */
  profileWarning: boolean
  pathname: string
  onNavigate?: () => void
  /** Adds the admin console's entry (the signed-in user has the admin role). */
  showAdmin?: boolean
}) {
  const { t } = useTranslation()
  return (
    <Box component="nav" aria-label={t('shell.mainMenu')}>
      {/* A plain list, styled as MUI's List and ListItem with disablePadding: those two (and the
          secondary-action code ListItem always brings) were ~1.7 kB of the shell's first load (issue 13). */}
      <Box component="ul" sx={{ display: 'grid', gap: 0.5, listStyle: 'none', m: 0, p: 0, position: 'relative' }}>
        {(showAdmin ? [...entries, adminEntry] : entries).map((entry) => {
          const colour = menuColours[entry.colour]
          const forcedActive = isAlsoActive(entry, pathname)
          return (
            <Box component="li" key={entry.id} sx={{ display: 'flex', alignItems: 'center', position: 'relative', width: '100%' }}>
              <ListItemButton
                component={NavLink}
                to={entry.to}
                onClick={onNavigate}
                data-testid={`menu-${entry.id}`}
                {...(forcedActive ? { 'aria-current': 'page' as const } : {})}
                sx={{
                  borderRadius: 2,
                  borderLeft: 4,
                  borderColor: 'transparent',
                  gap: 1.5,
                  py: 1,
                  color: 'text.primary',
                  fontWeight: 500,
                  '&[aria-current="page"]': { bgcolor: colour.tint, borderColor: colour.badge, fontWeight: 700 },
                  '&:hover': { bgcolor: colour.tint },
                }}
              >
                <Box
                  aria-hidden
                  sx={{
                    display: 'grid',
                    placeItems: 'center',
                    width: 34,
                    height: 34,
                    borderRadius: 1.5,
                    bgcolor: colour.badge,
                    color: colour.icon,
                    flexShrink: 0,
                  }}
                >
                  <entry.Icon fontSize="small" />
                </Box>
                <Box component="span" sx={{ flexGrow: 1 }}>
                  {t(entry.labelKey)}
                </Box>
                {entry.id === 'my-profile' && profileWarning && (
                  <WarningAmberRoundedIcon
                    titleAccess={t('shell.profileWarning')}
                    data-testid="profile-warning"
                    sx={{ color: '#b35c00' }}
                  />
                )}
              </ListItemButton>
            </Box>
          )
        })}
      </Box>
    </Box>
  )
}
