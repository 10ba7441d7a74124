import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormLabel from '@mui/material/FormLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import type { PaymentMethod } from '@pactum/contracts/transactions'
import { useId } from 'react'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { type CheckoutPlan, checkoutPart } from './checkout-plan.ts'
import type { Checkout } from './use-checkout.ts'

/** The checkout's step where the method may still change: the methods this buyer may use, and the fee for the one picked. */
export function CheckoutMethodStep({ plan, checkout }: { plan: CheckoutPlan; checkout: Checkout }) {
  const { t } = useTranslation()
  const labelId = useId()
  const { form, offered, method, quote } = checkout
  return (
    <>
      <FormControl>
        <FormLabel id={labelId}>{t('checkout.methodLabel')}</FormLabel>
        <RadioGroup
          aria-labelledby={labelId}
          value={method}
          onChange={(event) => form.setValue('method', event.target.value as PaymentMethod)}
        >
          {offered.map((option) => (
            <FormControlLabel
              key={option}
              value={option}
              control={<Radio slotProps={{ input: { 'data-testid': `checkout-method-${option}` } as object }} />}
              label={t(`paymentMethods.${option}`)}
            />
          ))}
        </RadioGroup>
      </FormControl>
      <AmountSummary
        part={checkoutPart(plan)}
        price={plan.price}
        currency={plan.currency}
        charge={quote.data?.payment_method === method ? quote.data.charge : undefined}
        loading={quote.isFetching}
      />
    </>
  )
}
