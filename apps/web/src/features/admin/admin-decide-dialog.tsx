import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { CaseView } from '@pactum/contracts/disputes'
import { adminActionBodySchema } from '@pactum/contracts/transactions'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { z } from 'zod'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { priceMessages } from '../../lib/money-field/price-error-text.ts'
import { PriceField } from '../../lib/money-field/price-field.tsx'
import { sellerPart, splitOfPriceSchema } from '../../lib/money-field/split-of-price.ts'
import { formatMoney } from '../../lib/money.ts'
import { useAdminAction } from './admin-api.ts'

const splitMessages = { ...priceMessages, tooLarge: 'transactionStatus.case.refundTooHigh' }

/**
 * An admin decides a case: how much of the price goes back to the buyer
 * (all, none or a part), the rest to the seller, with the reason both
 * parties receive by e-mail.
 */
export function AdminDecideDialog({ dispute, onClose, onDone }: { dispute: CaseView; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const [idempotencyKey] = useState(() => crypto.randomUUID())
  const mutation = useAdminAction(dispute.transaction_id)
  const price = { locale, currency: dispute.currency, price: dispute.price_in_dispute }
  const form = useForm<{ refund: string; reason: string }, unknown, { refund_to_buyer: number; release_to_seller: number; reason: string }>(
    {
      resolver: zodResolver(z.object({ reason: adminActionBodySchema.shape.reason }).and(splitOfPriceSchema(price))),
      defaultValues: { refund: '', reason: '' },
    },
  )
  const [refundText] = useWatch({ control: form.control, name: ['refund'] })
  const release = sellerPart(refundText, price)
  const money = (minor: number) => formatMoney(minor, dispute.currency, locale)
  const submit = form.handleSubmit(async ({ reason, ...split }) => {
    await mutation.mutateAsync({ action: { type: 'decide', ...split }, reason, idempotencyKey }).then(onDone, () => undefined)
  })
  return (
    <FormDialog
      title={t('admin.actions.decide.title')}
      body={t('admin.actions.decide.summary', { price: money(dispute.price_in_dispute) })}
      confirmLabel={t('admin.actions.decide.confirm')}
      destructive
      busy={mutation.isPending}
      onSubmit={submit}
      onClose={onClose}
      testId="admin-decide-dialog"
    >
      {mutation.isError && <Alert severity="error">{errorMessage(t, mutation.error)}</Alert>}
      <PriceField
        control={form.control}
        name="refund"
        label={t('transactionStatus.case.refundLabel')}
        currency={dispute.currency}
        messages={splitMessages}
        minimum={0}
        testId="admin-decide-refund"
      />
      <Typography data-testid="admin-decide-release" aria-live="polite">
        {release === null ? '\u00a0' : t('transactionStatus.case.releaseLine', { release: money(release) })}
      </Typography>
      <TextField
        label={t('admin.actions.reason')}
        required
        multiline
        minRows={2}
        {...form.register('reason')}
        error={!!form.formState.errors.reason}
        helperText={form.formState.errors.reason ? t('admin.actions.reasonRequired') : t('admin.actions.decide.reasonHint')}
        slotProps={{ htmlInput: { 'data-testid': 'admin-decide-reason', maxLength: 1000 } }}
      />
      <Typography variant="body2">{t('admin.actions.final')}</Typography>
    </FormDialog>
  )
}
