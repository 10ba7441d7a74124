import Breadcrumbs from '@mui/material/Breadcrumbs'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useEffect } from 'react'
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
        <Breadcrumbs aria-label={t('shell.breadcrumbs')}>
          {breadcrumbs.map((crumb) =>
            crumb.to ? (
              <Link key={crumb.label} component={RouterLink} to={crumb.to} underline="hover" color="primary">
                {crumb.label}
              </Link>
            ) : (
              <Typography key={crumb.label} color="text.primary" aria-current="page">
                {crumb.label}
              </Typography>
            ),
          )}
        </Breadcrumbs>
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
