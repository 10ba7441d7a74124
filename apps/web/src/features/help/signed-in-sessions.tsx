import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { useSignedInSessions, useSignOutOtherSessions } from './signed-in-sessions-api.ts'

/**
 * The browsers signed in to the account (embedded sign-in): when each signed
 * in and was last used, this one marked, and a way to sign out all the
 * others (with "Log out" above, that is everywhere).
 */
export function SignedInSessions() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const headingId = useId()
  const sessions = useSignedInSessions()
  const signOutOthers = useSignOutOtherSessions()
  const others = (sessions.data ?? []).filter((session) => !session.current).length

  return (
    <section aria-labelledby={headingId} data-testid="signed-in-sessions">
      <Typography component="h2" variant="h6" id={headingId} sx={{ mb: 1 }}>
        {t('help.account.sessions.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('help.account.sessions.intro')}
      </Typography>
      {sessions.isPending && <Typography role="status">{t('help.account.sessions.loading')}</Typography>}
      {sessions.isError && (
        <Alert severity="error" role="alert">
          {t('help.account.sessions.loadFailed')}
        </Alert>
      )}
      {sessions.data && (
        <List dense sx={{ mb: 1 }}>
          {sessions.data.map((session) => (
            <ListItem key={session.id} disableGutters data-testid="signed-in-session">
              <ListItemText
                primary={t('help.account.sessions.signedIn', { date: formatDateTime(session.signed_in_at, locale) })}
                secondary={t('help.account.sessions.lastUsed', { date: formatDateTime(session.last_used_at, locale) })}
              />
              {session.current && <Chip size="small" color="primary" variant="outlined" label={t('help.account.sessions.current')} />}
            </ListItem>
          ))}
        </List>
      )}
      <Button
        variant="outlined"
        onClick={() => signOutOthers.mutate()}
        loading={signOutOthers.isPending}
        disabled={others === 0}
        data-testid="sign-out-other-sessions"
      >
        {t('help.account.sessions.signOutOthers')}
      </Button>
      {signOutOthers.isSuccess && (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {t('help.account.sessions.signedOut')}
        </Alert>
      )}
      {signOutOthers.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(t, signOutOthers.error)}
        </Alert>
      )}
    </section>
  )
}
