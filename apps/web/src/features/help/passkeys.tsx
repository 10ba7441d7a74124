import { zodResolver } from '@hookform/resolvers/zod'
import KeyIcon from '@mui/icons-material/KeyOutlined'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type Passkey, passkeyNameMaxLength, passkeyOptionsBodySchema, type RegisterPasskeyBody } from '@pactum/contracts/passkeys'
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { useAddPasskey, usePasskeys, useRemovePasskey } from '../../lib/api/passkeys.ts'
import { formatDate } from '../../lib/dates.ts'
import { AccountForm, AccountFormSubmit, CurrentPasswordField } from './account-form.tsx'
import { AccountSection } from './account-section.tsx'

const addPasskeySchema = passkeyOptionsBodySchema.extend({ name: z.string().trim().min(1).max(passkeyNameMaxLength) })
type AddPasskeyForm = z.infer<typeof addPasskeySchema>

/** The browser's WebAuthn, through @simplewebauthn/browser; a test hands in its own. */
export type CreatePasskey = (options: unknown) => Promise<RegisterPasskeyBody['response']>
const createWithBrowser: CreatePasskey = async (options) =>
  (await startRegistration({
    optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'],
  })) as unknown as RegisterPasskeyBody['response']

/** The browser said no: the person cancelled, or the authenticator refused. Not a server error. */
function isBrowserRefusal(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'NotAllowedError' ||
      error.name === 'InvalidStateError' ||
      error.name === 'WebAuthnError' ||
      error.name === 'AbortError')
  )
}

/**
 * Passkeys of the embedded sign-in (issue 30): sign in with the device's
 * fingerprint, face or PIN instead of the password. Adding one asks for the
 * password, so a browser left signed in cannot add a way in.
 */
export function Passkeys({
  create = createWithBrowser,
  supported = browserSupportsWebAuthn(),
}: {
  create?: CreatePasskey
  supported?: boolean
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const passkeys = usePasskeys(true)
  const add = useAddPasskey(create)
  const remove = useRemovePasskey()
  const [removing, setRemoving] = useState<Passkey | null>(null)
  const form = useForm<AddPasskeyForm>({
    resolver: zodResolver(addPasskeySchema),
    defaultValues: { name: t('help.account.passkeys.defaultName'), current_password: '' },
  })
  const submit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values)
      form.reset({ name: t('help.account.passkeys.defaultName'), current_password: '' })
    } catch (error) {
      if (errorCodeOf(error) === 'incorrect_password') form.setError('current_password', { message: 'incorrect' }, { shouldFocus: true })
    }
  })
  const { errors } = form.formState
  const passwordError =
    errors.current_password &&
    t(
      errors.current_password.message === 'incorrect'
        ? 'help.account.passkeys.incorrectPassword'
        : 'help.account.passkeys.passwordRequired',
    )
  const addError =
    add.isError && errorCodeOf(add.error) !== 'incorrect_password'
      ? isBrowserRefusal(add.error)
        ? t('help.account.passkeys.cancelled')
        : errorMessage(t, add.error)
      : undefined

  return (
    <AccountSection heading={t('help.account.passkeys.heading')} intro={t('help.account.passkeys.intro')}>
      {passkeys.isError && <Alert severity="error">{errorMessage(t, passkeys.error)}</Alert>}
      {passkeys.data && passkeys.data.length === 0 && (
        <Typography sx={{ mb: 2 }} data-testid="passkeys-empty">
          {t('help.account.passkeys.none')}
        </Typography>
      )}
      {passkeys.data && passkeys.data.length > 0 && (
        <List dense sx={{ mb: 2, maxWidth: 520 }} data-testid="passkeys-list">
          {passkeys.data.map((passkey) => (
            <ListItem
              key={passkey.id}
              disableGutters
              secondaryAction={
                <Button
                  size="small"
                  color="error"
                  onClick={() => setRemoving(passkey)}
                  aria-label={t('help.account.passkeys.removeNamed', { name: passkey.name })}
                >
                  {t('help.account.passkeys.remove')}
                </Button>
              }
            >
              <KeyIcon aria-hidden sx={{ mr: 1.5, color: 'text.secondary' }} />
              <ListItemText
                primary={passkey.name}
                secondary={
                  passkey.last_used
                    ? t('help.account.passkeys.addedUsed', {
                        added: formatDate(passkey.created, locale),
                        used: formatDate(passkey.last_used, locale),
                      })
                    : t('help.account.passkeys.added', { added: formatDate(passkey.created, locale) })
                }
              />
            </ListItem>
          ))}
        </List>
      )}
      {supported ? (
        <AccountForm onSubmit={submit} testId="add-passkey">
          <TextField
            {...form.register('name')}
            required
            label={t('help.account.passkeys.name')}
            error={!!errors.name}
            helperText={errors.name ? t('help.account.passkeys.nameRequired') : t('help.account.passkeys.nameHint')}
            slotProps={{ htmlInput: { maxLength: passkeyNameMaxLength, 'data-testid': 'passkey-name' } }}
          />
          <CurrentPasswordField
            registration={form.register('current_password')}
            label={t('help.account.passkeys.currentPassword')}
            error={passwordError}
            testId="passkey-password"
          />
          <AccountFormSubmit startIcon={<KeyIcon aria-hidden />} loading={add.isPending} data-testid="add-passkey-submit">
            {t('help.account.passkeys.add')}
          </AccountFormSubmit>
          {add.isSuccess && (
            <Alert severity="success" role="status" data-testid="passkey-added">
              {t('help.account.passkeys.addedDone', { name: add.data.name })}
            </Alert>
          )}
          {addError && (
            <Alert severity="error" role="alert" data-testid="passkey-add-error">
              {addError}
            </Alert>
          )}
        </AccountForm>
      ) : (
        <Alert severity="info" role="note">
          {t('help.account.passkeys.unsupported')}
        </Alert>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('help.account.passkeys.removeTitle')}
        body={t('help.account.passkeys.removeBody', { name: removing?.name ?? '' })}
        confirmLabel={t('help.account.passkeys.remove')}
        cancelLabel={t('common.cancel')}
        destructive
        busy={remove.isPending}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })
        }}
        onClose={() => setRemoving(null)}
        testId="remove-passkey-dialog"
      />
    </AccountSection>
  )
}
