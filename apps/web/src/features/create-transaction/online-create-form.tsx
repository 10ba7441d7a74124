import { zodResolver } from '@hookform/resolvers/zod'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import type { Transaction } from '@pactum/contracts/transactions'
import { minimumPrice } from '@pactum/domain/fees'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { quotablePrice } from '../../lib/money-field/read-price.ts'
import { useFeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import { formatMoneyInput, majorTextToMinor } from '../../lib/money.ts'
import { stepKeysByMode } from './create-mode.ts'
import { useCreateTransaction } from './create-transaction-api.ts'
import { useCreateErrorText } from './description-field.tsx'
import { fieldsByStep, type OnlineCreateFormInput, type OnlineCreateFormOutput, onlineCreateFormSchema } from './online-create-model.ts'
import { OnlinePriceStep } from './online-price-step.tsx'
import { OnlineReviewStep } from './online-review-step.tsx'
import type { Prefill } from './prefill.ts'
import { RoleField } from './role-field.tsx'
import { useCreateFlow } from './use-create-flow.ts'
import { BusyButton } from '../../components/busy-button.tsx'
import { CreateFormFrame } from './create-form-frame.tsx'

const steps = stepKeysByMode.createTransactionOnline

function initialPriceText(price: string | undefined, currency: string, locale: Parameters<typeof formatMoneyInput>[2]) {
  if (!price) return ''
  const minor = majorTextToMinor(price, currency)
  return minor === null ? price : formatMoneyInput(minor, currency, locale)
}

/** The online build flow: 1 role, 2 item and price, 3 review the fee and create. */
export function OnlineCreateForm({ prefill, currencies }: { prefill: Prefill; currencies: string[] }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const flow = useCreateFlow<Transaction>()
  const { step, setStep, created } = flow
  const errorText = useCreateErrorText('createTransaction.errors')

  const initialCurrency = prefill.currency ?? (currencies.includes('eur') ? 'eur' : (currencies[0] ?? 'eur'))
  const form = useForm<OnlineCreateFormInput, unknown, OnlineCreateFormOutput>({
    resolver: zodResolver(onlineCreateFormSchema({ locale })),
    defaultValues: {
      role: prefill.role ?? '',
      description: prefill.description ?? '',
      currency: initialCurrency,
      price: initialPriceText(prefill.price, initialCurrency, locale),
      payment_method: 'card',
    },
  })
  const [role, currency, priceText, description, paymentMethod] = useWatch({
    control: form.control,
    name: ['role', 'currency', 'price', 'description', 'payment_method'],
  })
  const price = quotablePrice(priceText, currency, locale, minimumPrice)
  const fee = useFeeQuote(price, { currency, paymentMethod })
  const create = useCreateTransaction()

  const submit = flow.submitSteps(form, fieldsByStep, steps.length - 1, async (values) => {
    const shown = fee.shown
    if (!shown || shown.price !== values.price) return
    await flow.send(create.mutate, fee, (guest) => ({
      role: values.role,
      price: values.price,
      currency: values.currency,
      description: values.description,
      payment_method: values.payment_method,
      charge: shown.charge,
      charge_calculator_version: shown.charge_calculator_version,
      ...guest,
    }))
  })

  return (
    <CreateFormFrame steps={steps} step={step} created={created} flow={flow} onSubmit={(event) => void submit(event)}>
      {step === 0 && <RoleField control={form.control} name="role" error={errorText(form.formState.errors.role?.message)} />}
      {step === 1 && <OnlinePriceStep form={form} currencies={currencies} price={price} fee={fee} />}
      {step === 2 && price !== null && role !== '' && (
        <OnlineReviewStep
          role={role}
          description={description}
          paymentMethod={paymentMethod}
          price={price}
          currency={currency}
          fee={fee}
          inviteForm={flow.inviteForm}
        />
      )}

      <Stack direction="row" spacing={1.5} sx={{ mt: 3, flexWrap: 'wrap', gap: 1.5 }}>
        {step > 0 && (
          <Button onClick={() => setStep(step - 1)} disabled={create.isPending} data-testid="create-back">
            {t('common.back')}
          </Button>
        )}
        {step < steps.length - 1 ? (
          <Button type="submit" variant="contained" data-testid="create-next">
            {t('common.next')}
          </Button>
        ) : (
          <BusyButton type="submit" variant="contained" disabled={!fee.shown} busy={create.isPending} data-testid="create-submit">
            {t('createTransaction.create')}
          </BusyButton>
        )}
      </Stack>
    </CreateFormFrame>
  )
}
