import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import FormControlLabel from '@mui/material/FormControlLabel'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import Typography from '@mui/material/Typography'
import { type OptionalEmailCategory, optionalEmailCategories } from '@pactum/contracts/notification-preferences'
import { useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { AccountSection } from './account-section.tsx'
import { useNotificationPreferences, useSaveNotificationPreferences } from './notification-preferences-api.ts'

/**
 * "E-mail notifications": a switch per optional kind of e-mail, each saved
 * the moment it moves (decision 101). The outcome is said in a line beside
 * them, read out by screen readers, rather than in a dialog that would take
 * the keyboard focus away from the switch.
 */
export function NotificationPreferences() {
  const { t } = useTranslation()
  const preferences = useNotificationPreferences()
  const save = useSaveNotificationPreferences()

  return (
    <AccountSection
      heading={t('help.account.emailNotifications.heading')}
      intro={t('help.account.emailNotifications.intro')}
      testId="notification-preferences"
    >
      {preferences.isPending ? (
        <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography>{t('help.account.emailNotifications.loading')}</Typography>
        </Stack>
      ) : preferences.isError ? (
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Typography color="error">{t('help.account.emailNotifications.loadFailed')}</Typography>
          <Button onClick={() => void preferences.refetch()}>{t('common.retry')}</Button>
        </Stack>
      ) : (
        <>
          <Stack spacing={2} sx={{ mb: 2 }}>
            {optionalEmailCategories.map((category) => (
              <CategorySwitch
                key={category}
                category={category}
                checked={preferences.data[category]}
                onChange={(checked) => save.mutate({ ...preferences.data, [category]: checked })}
              />
            ))}
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('help.account.emailNotifications.alwaysSent')}
          </Typography>
        </>
      )}
      <SaveState state={save.isPending ? 'saving' : save.isError ? 'failed' : save.isSuccess ? 'saved' : 'idle'} />
    </AccountSection>
  )
}

function CategorySwitch({
  category,
  checked,
  onChange,
}: {
  category: OptionalEmailCategory
  checked: boolean
  onChange: (checked: boolean) => void
}) {
  const { t } = useTranslation()
  const descriptionId = useId()
  return (
    <div>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': descriptionId } }}
            data-testid={`email-category-${category}`}
          />
        }
        label={t(`help.account.emailNotifications.${category}.label`)}
      />
      <Typography id={descriptionId} variant="body2" color="text.secondary" sx={{ ml: 6.5 }}>
        {t(`help.account.emailNotifications.${category}.description`)}
      </Typography>
    </div>
  )
}

/** Always in the page, so that a screen reader hears each change of its text. */
function SaveState({ state }: { state: 'idle' | 'saving' | 'saved' | 'failed' }) {
  const { t } = useTranslation()
  return (
    <Typography
      aria-live="polite"
      data-testid="notification-preferences-state"
      variant="body2"
      color={state === 'failed' ? 'error' : state === 'saved' ? 'success.main' : 'text.secondary'}
      sx={{ minHeight: '1.5em', fontWeight: state === 'idle' ? undefined : 500 }}
    >
      {state === 'idle' ? '' : t(`help.account.emailNotifications.${state}`)}
    </Typography>
  )
}
