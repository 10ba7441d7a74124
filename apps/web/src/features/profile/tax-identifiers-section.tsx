import { zodResolver } from '@hookform/resolvers/zod'
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { useUpdatePersonalProfile } from './profile-api.ts'
import { usePayoutRequirements } from '../../lib/api/profile-queries.ts'
import {
  type TaxIdentifierError,
  type TaxIdentifierFields,
  taxIdentifierFields,
  type TaxIdentifiersFormInput,
  type TaxIdentifiersFormOutput,
  taxIdentifiersFormSchema,
} from './tax-identifiers-model.ts'

/**
 * US sellers: the SSN's last four digits, and the full number when the
 * payment provider asks for it (payout requirements `ssn_last_4`,
 * `id_number`). Sent to the provider through PUT /me/personal; never shown
 * back, since Pactum does not keep them.
 */
export function TaxIdentifiersSection({ profile }: { profile: PersonalProfile }) {
  const requirements = usePayoutRequirements()
  if (profile.address?.country_code !== 'us' || !requirements.data) return null
  const due = requirements.data.requirements.other
  const fields = taxIdentifierFields({ ssnLast4Provided: profile.ssn_last_4_provided ?? false, due })
  // Keyed: a new requirement (the full number) starts a fresh form.
  return <TaxIdentifiersForm key={`${fields.ssnLast4}-${fields.idNumber}`} fields={fields} />
}

function TaxIdentifiersForm({ fields }: { fields: TaxIdentifierFields }) {
  const { t } = useTranslation()
  const result = useResultModal()
  const toast = useToast()
  const update = useUpdatePersonalProfile()
  const form = useForm<TaxIdentifiersFormInput, unknown, TaxIdentifiersFormOutput>({
    resolver: zodResolver(taxIdentifiersFormSchema(fields)),
    defaultValues: { ssnLast4: '', idNumber: '' },
  })
  const asksSomething = fields.ssnLast4 || fields.idNumber

  const submit = form.handleSubmit(async (body) => {
    try {
      await update.mutateAsync(body)
      form.reset({ ssnLast4: '', idNumber: '' })
      // A small save: confirmed by a toast, the full-screen result is kept for money and sales (issue 33 item 4).
      toast.show(t('profile.tax.saved'), { severity: 'success' })
    } catch (error) {
      result.showError(errorMessage(t, error))
    }
  })

  const errorText = (error: string | undefined) => {
    switch (error as TaxIdentifierError | undefined) {
      case 'required':
        return t('profile.tax.errors.required')
      case 'ssnLast4Format':
        return t('profile.tax.errors.ssnLast4Format')
      case 'idNumberFormat':
        return t('profile.tax.errors.idNumberFormat')
      default:
        return undefined
    }
  }
  const { errors } = form.formState

  return (
    <ContentCard testId="tax-identifiers">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('profile.tax.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('profile.tax.intro')}
      </Typography>
      {!asksSomething ? (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <CheckCircleOutlineIcon aria-hidden color="success" />
          <Typography data-testid="tax-identifiers-given">{t('profile.tax.given')}</Typography>
        </Stack>
      ) : (
        <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)} sx={{ maxWidth: 360 }}>
          {fields.ssnLast4 && (
            <TextField
              {...form.register('ssnLast4')}
              label={t('profile.tax.ssnLast4Label')}
              required
              autoComplete="off"
              error={!!errors.ssnLast4}
              helperText={errorText(errors.ssnLast4?.message) ?? t('profile.tax.ssnLast4Hint')}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 4, 'data-testid': 'ssn-last-4-input' } }}
            />
          )}
          {fields.idNumber && (
            <>
              <Typography data-testid="id-number-asked">{t('profile.tax.idNumberWhy')}</Typography>
              <TextField
                {...form.register('idNumber')}
                label={t('profile.tax.idNumberLabel')}
                required
                type="password"
                autoComplete="off"
                error={!!errors.idNumber}
                helperText={errorText(errors.idNumber?.message) ?? t('profile.tax.idNumberHint')}
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 11, 'data-testid': 'id-number-input' } }}
              />
            </>
          )}
          <Button
            type="submit"
            variant="contained"
            loading={form.formState.isSubmitting}
            sx={{ alignSelf: 'flex-start' }}
            data-testid="tax-identifiers-save"
          >
            {t('profile.tax.save')}
          </Button>
        </Stack>
      )}
    </ContentCard>
  )
}
