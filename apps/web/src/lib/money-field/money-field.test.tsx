import { zodResolver } from '@hookform/resolvers/zod'
import Button from '@mui/material/Button'
import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { useLocale } from '../../i18n/use-locale.ts'
import type { ApiRequest } from '../api/api-client.ts'
import { apiError, type fakeApiClient } from '../../test/fake-api-client.ts'
import { renderWithApi } from '../../test/render-app.tsx'
import { CurrencyField } from './currency-field.tsx'
import { FeeSummary } from './fee-summary.tsx'
import { depositMessages, priceMessages } from './price-error-text.ts'
import { PriceField } from './price-field.tsx'
import { quotablePrice, readPrice } from './read-price.ts'
import { useFeeQuote } from './use-fee-quote.ts'

/** `GET /charge` as the server answers it: `rate` of the price, schedule version 1. */
const quoteAt =
  (rate: number) =>
  ({ query }: ApiRequest) => ({
    price: Number(query?.price),
    currency: query?.currency,
    payment_method: query?.payment_method,
    charge: Math.round(Number(query?.price) * rate),
    charge_seller: 0,
    charge_buyer_client: 0,
    charge_seller_client: 0,
    charge_calculator_version: 1,
  })

/** A contract-like schema: the price as typed becomes minor units, or a `PriceError` on the field. */
const offerSchema = (locale: Locale) =>
  z.object({ currency: z.string(), price: z.string() }).transform((values, context) => {
    const price = readPrice(values.price, values.currency, locale, minimumPrice)
    if (typeof price === 'number') return { ...values, price }
    context.addIssue({ code: 'custom', path: ['price'], message: price })
    return z.NEVER
  })
type OfferInput = z.input<ReturnType<typeof offerSchema>>
type OfferOutput = z.output<ReturnType<typeof offerSchema>>

/** The smallest offer form: a currency, a price, its fee, and a send that the server may refuse as stale. */
function OfferForm({ send, deposit = false }: { send: () => Promise<void>; deposit?: boolean }) {
  const { locale } = useLocale()
  const form = useForm<OfferInput, unknown, OfferOutput>({
    resolver: zodResolver(offerSchema(locale)),
    defaultValues: { currency: 'eur', price: '' },
  })
  const [currency, text] = useWatch({ control: form.control, name: ['currency', 'price'] })
  const price = quotablePrice(text, currency, locale, minimumPrice)
  const fee = useFeeQuote(price, { currency, paymentMethod: 'card' })
  const [sent, setSent] = useState(false)
  const submit = form.handleSubmit(async () => {
    fee.clearFeeChanged()
    try {
      await send()
      setSent(true)
    } catch (error) {
      if (!fee.recoverFromStaleFee(error)) throw error
    }
  })
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <CurrencyField form={form} name="currency" amountName="price" label="Currency" currencies={['eur', 'jpy']} testId="currency" />
      <PriceField
        control={form.control}
        name="price"
        label="Price"
        currency={currency}
        hint="The price"
        messages={deposit ? depositMessages : priceMessages}
        minimum={minimumPrice}
        testId="price"
      />
      {price !== null && <FeeSummary fee={fee} price={price} currency={currency} retry />}
      {fee.feeChanged && <p data-testid="fee-changed">changed</p>}
      {sent && <p data-testid="sent">sent</p>}
      <Button type="submit">Send</Button>
    </form>
  )
}

async function renderForm(routes: Record<string, unknown>, send: () => Promise<void> = async () => undefined, deposit = false) {
  return renderWithApi(<OfferForm send={send} deposit={deposit} />, routes)
}

const charges = (api: ReturnType<typeof fakeApiClient>) => api.request.mock.calls.filter(([path]) => path === '/charge')

describe('the money field', { timeout: 15_000 }, () => {
  it('quotes the fee once typing pauses, for exactly the price on screen', async () => {
    const api = await renderForm({ 'GET /charge': quoteAt(0.05) })
    await userEvent.type(screen.getByTestId('price'), '120')
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€6.00'))
    expect(screen.getByTestId('amount-total').textContent).toBe('€126.00')
    // One question for the whole typing: the quote waits until the price stops changing.
    expect(charges(api)).toHaveLength(1)
    expect(charges(api)[0]?.[1]?.query).toEqual({ price: 12_000, currency: 'eur', payment_method: 'card' })
  })

  it('says in words why a price cannot be sent, in the form’s own wording', async () => {
    await renderForm({ 'GET /charge': quoteAt(0.05) })
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(document.body.textContent).toContain('Enter the price.'))
    await userEvent.type(screen.getByTestId('price'), '0.5')
    await waitFor(() => expect(document.body.textContent).toContain('The lowest price is €1.00.'))
    await userEvent.clear(screen.getByTestId('price'))
    await userEvent.type(screen.getByTestId('price'), '1.234')
    await waitFor(() => expect(document.body.textContent).toContain('2 decimal'))
  })

  it('names the deposit in a deposit’s wording', async () => {
    await renderForm({ 'GET /charge': quoteAt(0.05) }, async () => undefined, true)
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(screen.getByTestId('price').getAttribute('aria-invalid')).toBe('true'))
    expect(document.body.textContent).toContain('Enter the deposit.')
  })

  it('offers to ask again when the quote fails', async () => {
    let fails = true
    await renderForm({
      'GET /charge': (request: ApiRequest) => {
        if (fails) throw apiError(503, 'service_unavailable')
        return quoteAt(0.05)(request)
      },
    })
    await userEvent.type(screen.getByTestId('price'), '120')
    const retry = await screen.findByRole('button', { name: 'Try again' })
    fails = false
    await userEvent.click(retry)
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€6.00'))
  })

  it('asks for the fee again when the server finds the one sent stale, and says it changed', async () => {
    let rate = 0.05
    let stale = true
    const send = async () => {
      if (stale) {
        stale = false
        rate = 0.1
        throw apiError(400, 'incorrect_charge')
      }
    }
    await renderForm({ 'GET /charge': (request: ApiRequest) => quoteAt(rate)(request) }, send)
    await userEvent.type(screen.getByTestId('price'), '120')
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€6.00'))
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByTestId('fee-changed')).toBeTruthy()
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€12.00'))
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByTestId('sent')).toBeTruthy()
    expect(screen.queryByTestId('fee-changed')).toBeNull()
  })
})
