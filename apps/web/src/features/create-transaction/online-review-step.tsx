import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { PaymentMethod } from '@pactum/contracts/transactions'
import { useTranslation } from '../../i18n/react.tsx'
import { FeeSummary } from '../../lib/money-field/fee-summary.tsx'
import type { FeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import { type GuestInviteForm, GuestInviteFields } from './guest-invite.tsx'

/** The online flow's last step: what will be created, with the fee to confirm, and the optional e-mailed invitation. */
export function OnlineReviewStep(props: {
  role: 'buyer' | 'seller'
  description: string
  paymentMethod: PaymentMethod
  price: number
  currency: string
  fee: FeeQuote
  inviteForm: GuestInviteForm
}) {
  const { role, description, paymentMethod, price, currency, fee, inviteForm } = props
  const { t } = useTranslation()
  return (
    <Stack spacing={2.5}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { sm: 'auto 1fr' }, columnGap: 3, rowGap: 1 }}>
        <Typography component="dt" color="text.secondary">
          {t('createTransaction.review.role')}
        </Typography>
        <Typography component="dd" sx={{ m: 0 }} data-testid="review-role">
          {t(`roles.${role}`)}
        </Typography>
        <Typography component="dt" color="text.secondary">
          {t('createTransaction.review.description')}
        </Typography>
        <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid="review-description">
          {description.trim()}
        </Typography>
        <Typography component="dt" color="text.secondary">
          {t('createTransaction.review.paymentMethod')}
        </Typography>
        <Typography component="dd" sx={{ m: 0 }}>
          {t(`paymentMethods.${paymentMethod}`)}
        </Typography>
      </Box>
      {fee.feeChanged && (
        <Alert severity="warning" data-testid="fee-changed">
          {t('createTransaction.feeChanged')}
        </Alert>
      )}
      <FeeSummary fee={fee} price={price} currency={currency} retry />
      <Typography color="text.secondary">
        {t(role === 'buyer' ? 'createTransaction.review.buyerPays' : 'createTransaction.review.sellerGets')}
      </Typography>
      <GuestInviteFields form={inviteForm} />
    </Stack>
  )
}
