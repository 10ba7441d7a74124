import { zodResolver } from '@hookform/resolvers/zod'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import type { F2fTransaction } from '@pactum/contracts/f2f-transactions'
import { minimumPrice } from '@pactum/domain/fees'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { CurrencyField } from '../../lib/money-field/currency-field.tsx'
import { quotablePrice } from '../../lib/money-field/read-price.ts'
import { useFeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import { formatMoneyInput, majorTextToMinor } from '../../lib/money.ts'
import { stepKeysByMode } from './create-mode.ts'
import { useCreateF2fTransaction } from './create-transaction-api.ts'
import { DepositStep } from './deposit-step.tsx'
import { DescriptionField, useCreateErrorText } from './description-field.tsx'
import { type FaceToFaceFormInput, type FaceToFaceFormOutput, faceToFaceFormSchema, fieldsByStep } from './face-to-face-model.ts'
import type { Prefill } from './prefill.ts'
import { RoleField } from './role-field.tsx'
import { useCreateFlow } from './use-create-flow.ts'
import { BusyButton } from '../../components/busy-button.tsx'
import { CreateFormFrame } from './create-form-frame.tsx'

const steps = stepKeysByMode.createTransactionFace
const inviteSteps = [...steps.slice(0, -1), 'guestInvitation.create.step']

/**
 * The face-to-face build flow: 1 role, item and currency, 2 the deposit and
 * its fee, 3 the code to share (or the e-mailed invitation). The total is set later by the seller.
 */
export function FaceToFaceCreateForm({ prefill, currencies }: { prefill: Prefill; currencies: string[] }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const flow = useCreateFlow<F2fTransaction>()
  const { step, setStep, created } = flow
  const errorText = useCreateErrorText('createTransaction.face.errors')
  const create = useCreateF2fTransaction()
  const inviting = useWatch({ control: flow.inviteForm.control, name: 'invite' })
  // The last step is sharing the code, unless the other party is invited by e-mail: then there is no code.
  const shownSteps = (created ? flow.invited !== null : inviting) ? inviteSteps : steps

  const initialCurrency = prefill.currency ?? (currencies.includes('eur') ? 'eur' : (currencies[0] ?? 'eur'))
  const initialDeposit = prefill.deposit ? majorTextToMinor(prefill.deposit, initialCurrency) : null
  const form = useForm<FaceToFaceFormInput, unknown, FaceToFaceFormOutput>({
    resolver: zodResolver(faceToFaceFormSchema({ locale })),
    defaultValues: {
      role: prefill.role ?? '',
      description: prefill.description ?? '',
      currency: initialCurrency,
      deposit: initialDeposit === null ? (prefill.deposit ?? '') : formatMoneyInput(initialDeposit, initialCurrency, locale),
    },
  })
  const [currency, depositText, description] = useWatch({ control: form.control, name: ['currency', 'deposit', 'description'] })
  const fee = useFeeQuote(quotablePrice(depositText, currency, locale, minimumPrice), {
    path: '/p2p/charge',
    currency,
    paymentMethod: 'card',
  })
  const deposit = fee.debouncedPrice

  const submit = flow.submitSteps(form, fieldsByStep, steps.length - 2, async (values) => {
    const shown = fee.shown
    if (!shown || shown.price !== values.depositPrice) return
    await flow.send(create.mutate, fee, (guest) => ({
      role: values.role,
      currency: values.currency,
      description: values.description,
      deposit_price: values.depositPrice,
      deposit_charge: shown.charge,
      charge_calculator_version: shown.charge_calculator_version,
      ...guest,
    }))
  })

  return (
    <CreateFormFrame
      steps={steps}
      shownSteps={shownSteps}
      step={step}
      created={created}
      flow={flow}
      onSubmit={(event) => void submit(event)}
    >
      {step === 0 && (
        <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
          <RoleField control={form.control} name="role" error={errorText(form.formState.errors.role?.message)} />
          <DescriptionField
            field={form.register('description')}
            length={description.length}
            error={errorText(form.formState.errors.description?.message)}
          />
          <CurrencyField
            form={form}
            name="currency"
            label={t('createTransaction.currencyLabel')}
            currencies={currencies}
            testId="currency-select"
            sx={{ maxWidth: 320 }}
          />
        </Stack>
      )}
      {step === 1 && <DepositStep form={form} currency={currency} fee={fee} inviteForm={flow.inviteForm} />}

      <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
        {step > 0 && (
          <Button onClick={() => setStep(step - 1)} disabled={create.isPending}>
            {t('common.back')}
          </Button>
        )}
        <BusyButton
          type="submit"
          variant="contained"
          disabled={step === 1 && !fee.shown && deposit !== null}
          busy={create.isPending}
          data-testid={step === 1 ? 'create-submit' : 'create-next'}
        >
          {step === 1 ? t('createTransaction.create') : t('common.next')}
        </BusyButton>
      </Stack>
    </CreateFormFrame>
  )
}
