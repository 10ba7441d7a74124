import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import { useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'
import { CheckoutAddressStep } from './checkout-address-step.tsx'
import { CheckoutMethodStep } from './checkout-method-step.tsx'
import { CheckoutPaymentStep } from './checkout-payment-step.tsx'
import type { CheckoutPlan } from './checkout-plan.ts'
import { VerifyIdentityLink } from './high-value-notice.tsx'
import { useCheckout } from './use-checkout.ts'
import { BusyButton } from '../../components/busy-button.tsx'

// The action buttons open the checkout with these plans, imported from here.
export { type CheckoutPlan, depositCheckout, onlineCheckout, remainderCheckout } from './checkout-plan.ts'

/**
 * One checkout: the shipping address where the goods are shipped (sent to
 * the server, where the seller reads it), the payment method where it may
 * still change, then the provider's form.
 */
export function CheckoutDialog({ plan, onClose }: { plan: CheckoutPlan; onClose: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const fullScreen = useMediaQuery('(max-width:599px)')
  const titleId = useId()
  const checkout = useCheckout(plan, onClose)
  const { stages, stage, busy, problem, method, intent } = checkout
  const total = intent ? plan.price + intent.charge : undefined

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      data-testid="checkout-dialog"
    >
      <DialogTitle id={titleId}>
        {t(`checkout.titles.${plan.stage}`)}
        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
          {t('checkout.stepOf', { current: stages.indexOf(stage) + 1, total: stages.length })}
          {' · '}
          {t(`checkout.stages.${stage}`)}
        </Typography>
      </DialogTitle>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          checkout.next()
        }}
        noValidate
        style={{ display: 'contents' }}
      >
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {stage === 'address' && <CheckoutAddressStep form={checkout.form} />}
            {stage === 'method' && <CheckoutMethodStep plan={plan} checkout={checkout} />}
            {stage === 'pay' && <CheckoutPaymentStep plan={plan} checkout={checkout} />}
            {problem && (
              <Alert severity="error" data-testid="payment-error" role="alert">
                {problem}
                {checkout.mustVerify && (
                  <Box sx={{ mt: 1.5 }}>
                    <VerifyIdentityLink testId="payment-error-verify-link" />
                  </Box>
                )}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={checkout.back} disabled={busy}>
            {stage === 'address' ? t('common.cancel') : t('common.back')}
          </Button>
          <BusyButton
            type="submit"
            variant="contained"
            disabled={(stage === 'method' && checkout.quote.isFetching) || (stage === 'pay' && !checkout.paymentSetup.data)}
            busy={busy}
            data-testid={stage === 'pay' ? 'pay-submit' : 'checkout-next'}
          >
            {stage === 'pay'
              ? method === 'p24'
                ? t('checkout.continueToP24')
                : total === undefined
                  ? t('checkout.payNow')
                  : t('checkout.payAmount', { amount: formatMoney(total, plan.currency, locale) })
              : t('common.next')}
          </BusyButton>
        </DialogActions>
      </form>
    </Dialog>
  )
}
