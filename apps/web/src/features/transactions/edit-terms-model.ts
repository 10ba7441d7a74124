import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { updateTransactionBodySchema } from '@pactum/contracts/transactions'
import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { ApiError } from '../../lib/api/api-error.ts'
import { readPrice as readTypedPrice } from '../../lib/money-field/read-price.ts'

/** The form's fields; `price` is the deposit of a face-to-face sale, as its PATCH calls it `deposit_price`. */
export type EditTermsField = 'description' | 'currency' | 'price'

/** The terms the PATCH may change, checked by the contract's own schema (every field required here: the form always has all three). */
const termsSchema = updateTransactionBodySchema.pick({ description: true, currency: true, price: true }).required()

const readPrice = (text: string, currency: string, locale: Locale) => readTypedPrice(text, currency, locale, minimumPrice)

/**
 * The edit form (PATCH /transactions/{id} and /p2p/transactions/{id}),
 * checked by the contract's `updateTransactionBodySchema`: its description
 * and currency rules apply to the fields as typed (all at once, so every
 * field shows its problem together), and the price, as typed in the
 * interface language's format, becomes minor units held to the server's
 * minimum before the contract checks the whole.
 */
export function editTermsFormSchema(input: { locale: Locale }) {
  const { description, currency } = updateTransactionBodySchema.shape
  return z
    .object({ description: description.unwrap(), currency: currency.unwrap(), price: z.string() })
    .superRefine((values, context) => {
      const price = readPrice(values.price, values.currency, input.locale)
      if (typeof price !== 'number') context.addIssue({ code: 'custom', path: ['price'], message: price })
    })
    .transform((values) => ({ ...values, price: readPrice(values.price, values.currency, input.locale) as number }))
    .pipe(termsSchema)
}

export type EditTermsFormInput = z.input<ReturnType<typeof editTermsFormSchema>>
export type EditTermsFormOutput = z.output<ReturnType<typeof editTermsFormSchema>>

/** The price a kind's edit changes: the online price, or the face-to-face deposit. */
export function currentPrice(transaction: AnyTransaction): number {
  return transaction.type === 'f2f' ? transaction.deposit_pricing.price : transaction.price
}

/** The fee the creator was shown for the new terms, as `GET /charge` (or `/p2p/charge`) quoted it. */
export interface ShownFee {
  charge: number
  charge_calculator_version: number
}

/**
 * The PATCH body: only what changed. A new price or currency is repriced on
 * the server, which then needs the fee the creator was shown (it answers
 * `incorrect_charge` if that fee is no longer right); a new description
 * alone needs none.
 */
export function patchBody(transaction: AnyTransaction, terms: EditTermsFormOutput, shown: ShownFee | null): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  if (terms.description !== transaction.description) body.description = terms.description
  if (repricing(transaction, terms)) {
    if (!shown) throw new Error('a new price or currency needs the fee the creator was shown')
    const f2f = transaction.type === 'f2f'
    body[f2f ? 'deposit_price' : 'price'] = terms.price
    body.currency = terms.currency
    body[f2f ? 'deposit_charge' : 'charge'] = shown.charge
    body.charge_calculator_version = shown.charge_calculator_version
  }
  return body
}

export function repricing(transaction: AnyTransaction, terms: Pick<EditTermsFormOutput, 'price' | 'currency'>): boolean {
  return terms.price !== currentPrice(transaction) || terms.currency !== transaction.currency
}

/**
 * The form field a server refusal names (`details.field` as `price`,
 * `deposit_price`, `currency`; or a `validation_failed`'s
 * `details.fields[].field` as `body.description`). The fee fields belong to
 * the price: they follow from it.
 */
export function serverFieldOf(error: unknown): EditTermsField | null {
  if (!(error instanceof ApiError)) return null
  const named: unknown[] = []
  if (Array.isArray(error.details.fields)) {
    for (const entry of error.details.fields) if (entry && typeof entry === 'object' && 'field' in entry) named.push(entry.field)
  }
  named.push(error.details.field)
  for (const field of named) {
    if (typeof field !== 'string') continue
    const name = field.replace(/^body\./, '')
    if (name === 'description' || name === 'currency') return name
    if (['price', 'deposit_price', 'charge', 'deposit_charge', 'charge_calculator_version'].includes(name)) return 'price'
  }
  return null
}
