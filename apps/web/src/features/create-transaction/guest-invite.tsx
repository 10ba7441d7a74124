import { zodResolver } from '@hookform/resolvers/zod'
import Checkbox from '@mui/material/Checkbox'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { guestEmailSchema } from '@pactum/contracts/transactions'
import { useId } from 'react'
import { Controller, useForm, type UseFormReturn, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { z } from 'zod'

/**
 * "Invite by e-mail" (issue 12 #2): instead of sharing a join code, the
 * creator names the other party's address and Pactum e-mails them a link.
 * The address is checked with the contracts' own schema.
 */
export const guestInviteFormSchema = z.discriminatedUnion('invite', [
  z.object({ invite: z.literal(false), email: z.string() }),
  z.object({ invite: z.literal(true), email: guestEmailSchema }),
])
type GuestInviteInput = z.input<typeof guestInviteFormSchema>
type GuestInviteOutput = z.output<typeof guestInviteFormSchema>
export type GuestInviteForm = UseFormReturn<GuestInviteInput, unknown, GuestInviteOutput>

export function useGuestInviteForm(): GuestInviteForm {
  return useForm<GuestInviteInput, unknown, GuestInviteOutput>({
    resolver: zodResolver(guestInviteFormSchema),
    defaultValues: { invite: false, email: '' },
  })
}

/** Validates the option; the address to invite, null for none, or undefined when the entry is invalid. */
export async function invitedEmail(form: GuestInviteForm): Promise<string | null | undefined> {
  let chosen: string | null | undefined
  await form.handleSubmit(
    (values) => {
      chosen = values.invite ? values.email : null
    },
    () => {
      chosen = undefined
    },
  )()
  return chosen
}

export function GuestInviteFields({ form }: { form: GuestInviteForm }) {
  const { t } = useTranslation()
  const hintId = useId()
  const invite = useWatch({ control: form.control, name: 'invite' })
  const emailError = form.formState.errors.email
  return (
    <Stack spacing={1.5} sx={{ maxWidth: 520 }} data-testid="guest-invite">
      <div>
        <Controller
          control={form.control}
          name="invite"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Checkbox
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  slotProps={{ input: { 'aria-describedby': hintId, 'data-testid': 'invite-by-email' } as object }}
                />
              }
              label={t('guestClaim.create.inviteLabel')}
            />
          )}
        />
        <FormHelperText id={hintId} sx={{ mt: 0 }}>
          {t('guestClaim.create.inviteHint')}
        </FormHelperText>
      </div>
      {invite && (
        <Controller
          control={form.control}
          name="email"
          render={({ field }) => (
            <TextField
              {...field}
              type="email"
              autoComplete="off"
              required
              label={t('guestClaim.create.emailLabel')}
              error={!!emailError}
              helperText={emailError ? t('guestClaim.create.emailInvalid') : t('guestClaim.create.emailHint')}
              slotProps={{ htmlInput: { 'data-testid': 'invite-email', maxLength: 320 } }}
            />
          )}
        />
      )}
    </Stack>
  )
}
