import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { isSupportedLocale, languageNames } from '@pactum/domain/locales'
import { useId, useRef } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useNotificationLanguage, useSetNotificationLanguage, useSupportedNotificationLanguages } from './notification-language-api.ts'

/** "Language of e-mails": a native select that saves as soon as a language is chosen. */
export function NotificationLanguageSelect() {
  const { t } = useTranslation()
  const toast = useToast()
  const id = useId()
  const selectRef = useRef<HTMLSelectElement>(null)
  const current = useNotificationLanguage()
  const supported = useSupportedNotificationLanguages()
  const save = useSetNotificationLanguage()

  if (current.isPending || supported.isPending) {
    return (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }} data-testid="notification-language-loading">
        <CircularProgress size={20} aria-hidden />
        <Typography>{t('help.account.notificationLanguage.loading')}</Typography>
      </Stack>
    )
  }
  if (current.isError || supported.isError) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="notification-language-error">
        <Typography color="error">{t('help.account.notificationLanguage.loadFailed')}</Typography>
        <Button
          onClick={() => {
            if (current.isError) void current.refetch()
            if (supported.isError) void supported.refetch()
          }}
        >
          {t('common.retry')}
        </Button>
      </Stack>
    )
  }

  const choose = (value: string) => {
    if (!isSupportedLocale(value) || value === current.data.language_code) return
    save.mutate(value, {
      onSuccess: () => toast.show(t('help.account.notificationLanguage.saved'), { severity: 'success' }),
      onError: () => toast.show(t('help.account.notificationLanguage.saveFailed'), { severity: 'error' }),
      // Disabling the select while saving drops the keyboard focus; give it back.
      onSettled: () => selectRef.current?.focus(),
    })
  }

  return (
    <TextField
      select
      id={id}
      label={t('help.account.notificationLanguage.label')}
      helperText={t('help.account.notificationLanguage.hint')}
      // While saving, show the choice being saved; after a failure the stored value comes back.
      value={save.isPending ? save.variables : current.data.language_code}
      onChange={(event) => choose(event.target.value)}
      disabled={save.isPending}
      inputRef={selectRef}
      size="small"
      sx={{ minWidth: 240, maxWidth: 360 }}
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'notification-language' } }}
    >
      {supported.data.map(({ language_code: code }) => (
        <option key={code} value={code} lang={code.split('_')[0]}>
          {isSupportedLocale(code) ? languageNames[code] : code}
        </option>
      ))}
    </TextField>
  )
}
