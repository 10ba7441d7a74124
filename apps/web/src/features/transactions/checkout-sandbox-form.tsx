import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { CheckoutTextField } from './checkout-text-field.tsx'
import type { Checkout } from './use-checkout.ts'

/** The sandbox's payment form: its test cards and IBAN, and the card number or IBAN the method takes. */
export function CheckoutSandboxForm({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation()
  const { form, method } = checkout
  return (
    <>
      <Alert severity="info" icon={false}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('checkout.sandbox.title')}
        </Typography>
        {method === 'card' && (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="test-cards">
            <li>{t('checkout.sandbox.cardSucceeds', { number: '4242 4242 4242 4242' })}</li>
            <li>{t('checkout.sandbox.cardDeclined', { number: '4000 0000 0000 0002' })}</li>
            <li>{t('checkout.sandbox.cardInsufficient', { number: '4000 0000 0000 9995' })}</li>
          </Box>
        )}
        {method === 'sepa' && (
          <Typography variant="body2">{t('checkout.sandbox.iban', { iban: 'DE89 3704 0044 0532 0130 00' })}</Typography>
        )}
        {method === 'p24' && <Typography variant="body2">{t('checkout.sandbox.p24')}</Typography>}
      </Alert>
      {method === 'card' && (
        <CheckoutTextField
          form={form}
          name="cardNumber"
          label={t('checkout.cardNumber')}
          clean={(text) => text.replace(/[^\d ]/g, '').slice(0, 23)}
          onEdited={checkout.clearProblem}
          required
          autoComplete="cc-number"
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'card-number-input' } }}
        />
      )}
      {method === 'sepa' && (
        <>
          <CheckoutTextField
            form={form}
            name="iban"
            label={t('checkout.iban')}
            clean={(text) => text.toUpperCase()}
            required
            slotProps={{ htmlInput: { 'data-testid': 'iban-input', autoCapitalize: 'characters', spellCheck: false } }}
          />
          <Typography variant="body2" color="text.secondary">
            {t('checkout.sepaMandate')}
          </Typography>
        </>
      )}
    </>
  )
}
