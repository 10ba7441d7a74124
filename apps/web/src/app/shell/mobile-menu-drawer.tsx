import Drawer from '@mui/material/Drawer'
import { useTranslation } from '../../i18n/react.tsx'
import { sidebarWidthPx } from '../../lib/constants.ts'
import { Sidebar } from './sidebar.tsx'

/** The menu below 960 px: a modal drawer, its own chunk since it is only needed once opened. */
export function MobileMenuDrawer({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <Drawer
      id={id}
      variant="temporary"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { 'aria-label': t('shell.menu') } }}
      sx={{ '& .MuiDrawer-paper': { width: Math.min(sidebarWidthPx + 40, 320), boxSizing: 'border-box' } }}
    >
      <Sidebar as="aside" onNavigate={onClose} />
    </Drawer>
  )
}
