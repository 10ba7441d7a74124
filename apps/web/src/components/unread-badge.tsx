import Chip from '@mui/material/Chip'
import { useTranslation } from '../i18n/react.tsx'

/** "3 unread messages", as a chip; nothing when there are none (or the answer did not say). */
export function UnreadBadge({ count, testId = 'unread-badge' }: { count: number | undefined; testId?: string }) {
  const { t } = useTranslation()
  if (!count) return null
  return <Chip size="small" color="primary" label={t('transactions.unread', { count })} data-testid={testId} sx={{ fontWeight: 600 }} />
}
