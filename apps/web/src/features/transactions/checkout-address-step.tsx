import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { toLanguageTag } from '@pactum/domain/locales'
import type { UseFormReturn } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { type CheckoutFormValues, shippingCountries } from './checkout-model.ts'
import type { ShippingAddress } from './checkout-prefill.ts'
import { CheckoutTextField } from './checkout-text-field.tsx'

/** The checkout's first step where the goods are shipped: the address, sent to the server for the seller. */
export function CheckoutAddressStep({ form }: { form: UseFormReturn<CheckoutFormValues> }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const field = (key: keyof ShippingAddress, autoComplete: string, required = true) => (
    <CheckoutTextField
      form={form}
      name={`address.${key}`}
      label={t(`checkout.address.${key}`)}
      required={required}
      autoComplete={autoComplete}
      fullWidth
    />
  )
  const regionNames = new Intl.DisplayNames(toLanguageTag(locale), { type: 'region' })
  const countries = shippingCountries
    .map((code) => ({ code, name: regionNames.of(code.toUpperCase()) ?? code.toUpperCase() }))
    .sort((a, b) => a.name.localeCompare(b.name, toLanguageTag(locale)))
  return (
    <>
      <Typography color="text.secondary">{t('checkout.address.intro')}</Typography>
      {field('name', 'shipping name')}
      {field('line1', 'shipping address-line1')}
      {field('line2', 'shipping address-line2', false)}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('postalCode', 'shipping postal-code')}
        {field('city', 'shipping address-level2')}
      </Stack>
      <CheckoutTextField
        form={form}
        name="address.country"
        select
        label={t('checkout.address.country')}
        required
        slotProps={{ select: { native: true }, htmlInput: { autoComplete: 'shipping country' } }}
      >
        <option value="" />
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </CheckoutTextField>
    </>
  )
}
