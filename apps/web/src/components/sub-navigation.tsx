import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { NavLink } from 'react-router'

export interface SubNavigationItem {
  label: string
  to: string
  /** Match only this exact path, not its children. */
  end?: boolean
}

/** Tabs-like links between the sections of an area; the active one carries aria-current="page". */
export function SubNavigation({ label, items }: { label: string; items: SubNavigationItem[] }) {
  return (
    <Box
      component="nav"
      aria-label={label}
      // One row on a phone too: it scrolls sideways rather than wrapping the tabs onto a second row.
      sx={{ display: 'flex', gap: 0.5, overflowX: 'auto', scrollbarWidth: 'none', borderBottom: 1, borderColor: 'divider', mb: 3 }}
    >
      {items.map((item) => (
        <Button
          key={item.to}
          component={NavLink}
          to={item.to}
          end={item.end}
          sx={{
            borderRadius: '8px 8px 0 0',
            borderBottom: 3,
            borderColor: 'transparent',
            color: 'text.secondary',
            px: { xs: 1.25, sm: 2 },
            flexShrink: 0,
            whiteSpace: 'nowrap',
            '&[aria-current="page"]': { color: 'primary.main', borderColor: 'primary.main', fontWeight: 700 },
          }}
        >
          {item.label}
        </Button>
      ))}
    </Box>
  )
}
