import Alert from '@mui/material/Alert'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { UseFormReturn } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { FeeSummary } from '../../lib/money-field/fee-summary.tsx'
import { OfferAmountField } from '../../lib/money-field/offer-amount-field.tsx'
import type { FeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import type { FaceToFaceFormInput, FaceToFaceFormOutput } from './face-to-face-model.ts'
import { type GuestInviteForm, GuestInviteFields } from './guest-invite.tsx'

/** The face-to-face flow's second step: the deposit and its fee, and the optional e-mailed invitation. */
export function DepositStep({
  form,
  currency,
  fee,
  inviteForm,
}: {
  form: UseFormReturn<FaceToFaceFormInput, unknown, FaceToFaceFormOutput>
  currency: string
  fee: FeeQuote
  inviteForm: GuestInviteForm
}) {
  const { t } = useTranslation()
  return (
    <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
      <Typography>{t('createTransaction.face.depositIntro')}</Typography>
      <OfferAmountField kind="f2f" control={form.control} name="deposit" currency={currency} testId="deposit-input" />
      <FeeSummary part="deposit" fee={fee} price={fee.debouncedPrice ?? 0} currency={currency} loading={fee.loading} />
      {fee.feeChanged && (
        <Alert severity="warning" data-testid="fee-changed">
          {t('createTransaction.feeChanged')}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary">
        {t(form.getValues('role') === 'buyer' ? 'createTransaction.face.reviewBuyer' : 'createTransaction.face.reviewSeller')}
      </Typography>
      <GuestInviteFields form={inviteForm} />
    </Stack>
  )
}
