import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { Fragment, useEffect } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'

export interface Crumb {
  label: string
  /** Omitted for the current page. */
  to?: string
}

/** The top of every page: breadcrumbs, the page's single h1 and an optional intro. */
export function PageHeader({ title, intro, breadcrumbs }: { title: string; intro?: string; breadcrumbs?: Crumb[] }) {
  const { t } = useTranslation()

  useEffect(() => {
    document.title = t('app.documentTitle', { page: title })
  }, [t, title])

  return (
    <Stack component="header" spacing={1} sx={{ mb: 3 }}>
      {breadcrumbs && breadcrumbs.length > 0 && (
        // MUI's Breadcrumbs draws this same list; its collapsing (past 8 crumbs) is never needed here,
        // and the rest of it would be in My transactions' first load (issue 13).
        <Box component="nav" aria-label={t('shell.breadcrumbs')} sx={{ color: 'text.secondary' }}>
          <Box component="ol" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', p: 0, m: 0, listStyle: 'none' }}>
            {breadcrumbs.map((crumb, index) => (
              <Fragment key={crumb.label}>
                {index > 0 && (
                  <Box component="li" aria-hidden sx={{ display: 'flex', userSelect: 'none', mx: 1 }}>
                    /
                  </Box>
                )}
                <li>
                  {crumb.to ? (
                    <Link component={RouterLink} to={crumb.to} underline="hover" color="primary">
                      {crumb.label}
                    </Link>
                  ) : (
                    <Typography color="text.primary" aria-current="page">
                      {crumb.label}
                    </Typography>
                  )}
                </li>
              </Fragment>
            ))}
          </Box>
        </Box>
      )}
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      {intro && (
        <Typography color="text.secondary" sx={{ maxWidth: 640 }}>
          {intro}
        </Typography>
      )}
    </Stack>
  )
}
