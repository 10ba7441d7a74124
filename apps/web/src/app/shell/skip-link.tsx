import Link from '@mui/material/Link'
import { useTranslation } from '../../i18n/react.tsx'

export const mainContentId = 'main-content'

/** Lets keyboard users jump past the menu; visible only while focused. */
export function SkipLink() {
  const { t } = useTranslation()
  return (
    <Link
      href={`#${mainContentId}`}
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: 'tooltip',
        bgcolor: 'background.paper',
        px: 2,
        py: 1,
        borderRadius: 1,
        boxShadow: 3,
        '&:focus': { top: 8 },
      }}
    >
      {t('shell.skipToContent')}
    </Link>
  )
}
