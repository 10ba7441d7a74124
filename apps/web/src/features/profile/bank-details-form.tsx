import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import type { BankDetailsField } from '@pactum/domain/bank-details'
import { malaysianBanks } from '@pactum/domain/countries'
import { type ChangeEvent, type FormEvent, type ReactNode, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useShowFirstInvalid } from '../../lib/forms/use-show-first-invalid.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useSaveDebitAccount } from './bank-details-api.ts'
import { BusyButton } from '../../components/busy-button.tsx'
import {
  type BankFormErrors,
  type BankFormField,
  type BankFormValues,
  debitAccountBody,
  emptyValues,
  schemeFields,
  schemeOf,
  serverBankErrors,
  validateBankForm,
} from './bank-details-model.ts'

const testIdOf = (field: BankFormField) => `bank-${field.replaceAll('_', '-')}`

/** The manual bank form for `country` (POST /me/debit_account). `onSaved` runs once the save is confirmed. */
export function BankDetailsForm({
  country,
  holderName,
  onSaved,
  actions,
}: {
  country: string
  holderName: string
  onSaved: () => void
  actions?: ReactNode
}) {
  const { t } = useTranslation()
  const resultModal = useResultModal()
  const toast = useToast()
  const save = useSaveDebitAccount()
  const [values, setValues] = useState<BankFormValues>(() => emptyValues(holderName))
  const [errors, setErrors] = useState<BankFormErrors>({})
  const busy = save.isPending
  const scheme = schemeOf(country)
  const fields: BankFormField[] = ['account_holder_name', ...schemeFields[scheme]]

  const errorText = (field: BankDetailsField): string | undefined => {
    const problem = errors[field]
    return problem ? t(`profile.bankDetails.errors.${problem}`) : undefined
  }

  const change = (field: BankFormField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    const next = { ...values, [field]: event.target.value }
    setValues(next)
    if (errors[field]) setErrors((current) => ({ ...current, [field]: validateBankForm(next, country)[field] }))
  }

  const showFirstInvalid = useShowFirstInvalid()
  const refuse = (form: HTMLElement, found: BankFormErrors) => {
    setErrors(found)
    showFirstInvalid(form)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const form = event.currentTarget
    const found = validateBankForm(values, country)
    if (Object.keys(found).length > 0) {
      refuse(form, found)
      return
    }
    setErrors(found)
    try {
      await save.mutateAsync(debitAccountBody(values, country))
      // A small save: confirmed by a toast, the full-screen result is kept for money and sales (issue 33 item 4).
      toast.show(t('profile.bankDetails.saved'), { severity: 'success' })
      onSaved()
    } catch (error) {
      if (error instanceof ApiError && error.code === 'validation_failed') {
        const fromServer = serverBankErrors(error.details)
        if (Object.keys(fromServer).length > 0) {
          refuse(form, fromServer)
          return
        }
      }
      resultModal.showError(errorMessage(t, error))
    }
  }

  const input = (field: BankFormField) => {
    const common = {
      label: field === 'bank_code' && scheme === 'my' ? t('profile.bankDetails.fields.bank') : t(`profile.bankDetails.fields.${field}`),
      value: values[field],
      onChange: change(field),
      error: Boolean(errors[field]),
      helperText: errorText(field),
      disabled: busy,
      required: true,
      fullWidth: true,
    }
    if (field === 'account_type' || (field === 'bank_code' && scheme === 'my')) {
      const options =
        field === 'account_type'
          ? (['checking', 'savings'] as const).map((type) => ({ value: type, label: t(`profile.bankDetails.accountTypes.${type}`) }))
          : malaysianBanks.map((bank) => ({ value: bank.routingNumber, label: bank.name }))
      return (
        <TextField
          key={field}
          {...common}
          select
          slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': testIdOf(field) } }}
        >
          <option value="">{t('profile.bankDetails.choose')}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </TextField>
      )
    }
    const numeric =
      ['sort_code', 'routing_number', 'bsb', 'transit_number', 'institution_number'].includes(field) ||
      (field === 'account_number' && scheme !== 'generic')
    return (
      <TextField
        key={field}
        {...common}
        autoComplete={field === 'account_holder_name' ? 'name' : 'off'}
        slotProps={{
          htmlInput: {
            'data-testid': testIdOf(field),
            spellCheck: false,
            inputMode: numeric ? 'numeric' : undefined,
            style: field === 'account_holder_name' ? undefined : { fontFamily: 'monospace' },
          },
        }}
      />
    )
  }

  return (
    <Box
      component="form"
      onSubmit={(event: FormEvent<HTMLFormElement>) => void submit(event)}
      noValidate
      data-testid="bank-manual-form"
      aria-label={t('profile.bankDetails.editTitle')}
    >
      <Stack spacing={2} sx={{ maxWidth: 440 }}>
        {fields.map(input)}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <BusyButton type="submit" variant="contained" data-testid="bank-save" busy={busy}>
            {t('profile.bankDetails.save')}
          </BusyButton>
          {actions}
        </Stack>
      </Stack>
    </Box>
  )
}
