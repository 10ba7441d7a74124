import { zodResolver } from '@hookform/resolvers/zod'
import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormLabel from '@mui/material/FormLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import TextField from '@mui/material/TextField'
import type { Listing } from '@pactum/contracts/listings'
import { minimumPrice } from '@pactum/domain/fees'
import { useId } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { CurrencyField } from '../../lib/money-field/currency-field.tsx'
import { listingPriceMessages } from '../../lib/money-field/price-error-text.ts'
import { PriceField } from '../../lib/money-field/price-field.tsx'
import { formatMoneyInput } from '../../lib/money.ts'
import { useSaveListing } from './listings-api.ts'
import { listingBody, type ListingFormInput, type ListingFormOutput, listingFormSchema } from './listing-form-model.ts'

const maxDescription = 1000

/** Creates a listing, or edits one (its kind and use are then fixed: buyers may already hold its link). */
export function ListingFormDialog({
  listing,
  currencies,
  onClose,
}: {
  listing: Listing | null
  currencies: string[]
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const toast = useToast()
  const result = useResultModal()
  const save = useSaveListing()
  const ids = { use: useId(), kind: useId() }
  const form = useForm<ListingFormInput, unknown, ListingFormOutput>({
    resolver: zodResolver(listingFormSchema(locale)),
    defaultValues: listing
      ? {
          listing_type: listing.listing_type,
          type: listing.type,
          currency: listing.currency,
          description: listing.description,
          price: formatMoneyInput(listing.price, listing.currency, locale),
        }
      : {
          listing_type: 'single_use',
          type: 'online',
          currency: currencies.includes('eur') ? 'eur' : (currencies[0] ?? 'eur'),
          description: '',
          price: '',
        },
  })
  const [type, currency] = useWatch({ control: form.control, name: ['type', 'currency'] })
  const errors = form.formState.errors

  const submit = form.handleSubmit((values) => {
    const price = values.type === 'f2f' ? { deposit_price: values.price } : { price: values.price }
    const request = listing
      ? { id: listing.id, body: { currency: values.currency, description: values.description, ...price } }
      : { id: null, body: listingBody(values) }
    save.mutate(request, {
      onSuccess: () => {
        onClose()
        toast.show(t(listing ? 'listings.card.saved' : 'listings.card.created'), { severity: 'success' })
      },
      onError: (error) => {
        onClose()
        result.showError(errorMessage(t, error))
      },
    })
  })

  return (
    <FormDialog
      title={t(listing ? 'listings.editTitle' : 'listings.createTitle')}
      confirmLabel={t(listing ? 'listings.form.save' : 'listings.form.create')}
      cancelLabel={t('listings.form.cancel')}
      busy={save.isPending}
      onSubmit={submit}
      onClose={onClose}
      testId="listing-form"
    >
      <Controller
        control={form.control}
        name="listing_type"
        render={({ field }) => (
          <FormControl disabled={listing !== null}>
            <FormLabel id={ids.use}>{t('listings.form.listingType')}</FormLabel>
            <RadioGroup row aria-labelledby={ids.use} value={field.value} onChange={(event) => field.onChange(event.target.value)}>
              <FormControlLabel
                value="single_use"
                control={<Radio slotProps={{ input: { 'data-testid': 'listing-single-use' } as object }} />}
                label={t('listings.form.singleUse')}
              />
              <FormControlLabel
                value="multi_use"
                control={<Radio slotProps={{ input: { 'data-testid': 'listing-multi-use' } as object }} />}
                label={t('listings.form.multiUse')}
              />
            </RadioGroup>
          </FormControl>
        )}
      />
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => (
          <FormControl disabled={listing !== null}>
            <FormLabel id={ids.kind}>{t('listings.form.kind')}</FormLabel>
            <RadioGroup row aria-labelledby={ids.kind} value={field.value} onChange={(event) => field.onChange(event.target.value)}>
              <FormControlLabel
                value="online"
                control={<Radio slotProps={{ input: { 'data-testid': 'listing-online' } as object }} />}
                label={t('listings.form.online')}
              />
              <FormControlLabel
                value="f2f"
                control={<Radio slotProps={{ input: { 'data-testid': 'listing-f2f' } as object }} />}
                label={t('listings.form.f2f')}
              />
            </RadioGroup>
          </FormControl>
        )}
      />
      <Controller
        control={form.control}
        name="description"
        render={({ field }) => (
          <TextField
            label={t('listings.form.description')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            required
            multiline
            minRows={2}
            error={!!errors.description}
            helperText={errors.description ? t('listings.form.errors.descriptionRequired') : undefined}
            slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': 'listing-description' } }}
          />
        )}
      />
      <CurrencyField
        form={form}
        name="currency"
        amountName="price"
        label={t('listings.form.currency')}
        currencies={currencies}
        testId="listing-currency"
      />
      <PriceField
        control={form.control}
        name="price"
        label={t(type === 'f2f' ? 'listings.form.deposit' : 'listings.form.price')}
        currency={currency}
        messages={listingPriceMessages}
        minimum={minimumPrice}
        testId="listing-price"
      />
    </FormDialog>
  )
}
