import { zodResolver } from '@hookform/resolvers/zod'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { CaseView } from '@pactum/contracts/disputes'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { PriceField } from '../../lib/money-field/price-field.tsx'
import { priceMessages } from '../../lib/money-field/price-error-text.ts'
import { sellerPart } from '../../lib/money-field/split-of-price.ts'
import { formatMoney } from '../../lib/money.ts'
import { type OfferFormInput, type OfferFormOutput, offerFormSchema } from './settlement-offer-model.ts'
import { useConfirmedAction } from './use-confirmed-action.ts'

const offerMessages = { ...priceMessages, tooLarge: 'transactionStatus.case.refundTooHigh' }

/**
 * Either party proposes how to split the price in dispute: what goes back to
 * the buyer, the rest to the seller, shown as it is typed; a new offer
 * replaces the open one.
 */
export function SettlementOfferDialog({
  transaction,
  dispute,
  onClose,
}: {
  transaction: AnyTransaction
  dispute: CaseView
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const confirmed = useConfirmedAction(transaction.id, transaction.type, onClose)
  const { currency, price_in_dispute: price } = dispute
  const form = useForm<OfferFormInput, unknown, OfferFormOutput>({
    resolver: zodResolver(offerFormSchema({ locale, currency, price })),
    defaultValues: { refund: '', note: '' },
  })
  const [refundText] = useWatch({ control: form.control, name: ['refund'] })
  const release = sellerPart(refundText, { locale, currency, price })
  const money = (minor: number) => formatMoney(minor, currency, locale)
  const [noteLength, setNoteLength] = useState(0)

  const submit = form.handleSubmit(async (body) => {
    confirmed.send('settlement_offers', body, t('transactionStatus.case.sent'))
  })

  return (
    <FormDialog
      title={t('transactionStatus.case.proposeTitle')}
      body={t('transactionStatus.case.proposeBody', { price: money(price) })}
      confirmLabel={t('transactionStatus.case.send')}
      busy={confirmed.busy}
      onSubmit={submit}
      onClose={onClose}
      testId="dialog-propose-settlement"
    >
      <PriceField
        control={form.control}
        name="refund"
        label={t('transactionStatus.case.refundLabel')}
        currency={currency}
        messages={offerMessages}
        minimum={0}
        testId="offer-refund"
      />
      <Typography data-testid="offer-release" aria-live="polite">
        {release === null ? '\u00a0' : t('transactionStatus.case.releaseLine', { release: money(release) })}
      </Typography>
      <TextField
        label={t('transactionStatus.case.noteLabel')}
        multiline
        minRows={2}
        fullWidth
        {...form.register('note', { onChange: (event) => setNoteLength(String(event.target.value).length) })}
        helperText={`${noteLength}/1000`}
        slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'offer-note' } }}
      />
    </FormDialog>
  )
}
