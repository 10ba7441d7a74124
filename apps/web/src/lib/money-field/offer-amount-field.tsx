import { minimumPrice } from '@pactum/domain/fees'
import type { FieldPathByValue, FieldValues } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import type { PriceFieldProps } from './price-field.tsx'
import { depositMessages, priceMessages } from './price-error-text.ts'
import { PriceField } from './price-field.tsx'

/**
 * The amount a new or edited sale asks for: an online sale's price, or a
 * face-to-face sale's deposit. Created and edited, each kind reads and
 * refuses the same way; both are at least the smallest price.
 */
export function OfferAmountField<T extends FieldValues, Out>({
  kind,
  control,
  name,
  currency,
  testId,
}: Pick<PriceFieldProps<T, Out>, 'control' | 'currency' | 'testId'> & { kind: 'online' | 'f2f'; name: FieldPathByValue<T, string> }) {
  const { t } = useTranslation()
  const f2f = kind === 'f2f'
  return (
    <PriceField
      control={control}
      name={name}
      label={t(f2f ? 'createTransaction.face.depositLabel' : 'createTransaction.priceLabel')}
      currency={currency}
      hint={t(f2f ? 'createTransaction.face.depositHint' : 'createTransaction.priceHint')}
      messages={f2f ? depositMessages : priceMessages}
      minimum={minimumPrice}
      testId={testId}
    />
  )
}
