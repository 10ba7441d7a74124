/**
 * The sandbox's test data (documented in docs/sandbox.md): what a card
 * number or an IBAN makes the simulated processor do. Close to Stripe's
 * test numbers so that people who know those recognise them.
 */
export interface DeclineDetails {
  /** Stripe's error code. */
  code: string
  /** Stripe's decline code, where Stripe has one. */
  declineCode: string | null
  message: string
}

/** `later`: news the card's bank sends after the payment succeeded (sandbox-disputes.ts). */
export type CardOutcome = { kind: 'succeed'; later?: 'dispute' | 'early_fraud_warning' } | { kind: 'decline'; error: DeclineDetails }

const succeedingCards = new Set(['4242424242424242', '5555555555554444', '4000056655665556'])

/** Stripe's dispute test cards: the payment succeeds, then a dispute ("fraudulent") or an early fraud warning follows. */
const laterNewsCards: Record<string, 'dispute' | 'early_fraud_warning'> = {
  '4000000000000259': 'dispute',
  '4000000000005423': 'early_fraud_warning',
}

const decliningCards: Record<string, DeclineDetails> = {
  '4000000000000002': { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': {
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': {
    code: 'incorrect_cvc',
    declineCode: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000000000000119': {
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again.',
  },
}

export function cardOutcome(input: string): CardOutcome {
  const digits = input.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return {
      kind: 'decline',
      error: { code: 'incorrect_number', declineCode: null, message: 'Your card number is incorrect.' },
    }
  }
  if (succeedingCards.has(digits)) return { kind: 'succeed' }
  const later = laterNewsCards[digits]
  if (later) return { kind: 'succeed', later }
  const decline = decliningCards[digits]
  if (decline) return { kind: 'decline', error: decline }
  return {
    kind: 'decline',
    error: {
      code: 'card_declined',
      declineCode: 'test_mode_live_card',
      message: 'Your card was declined: the sandbox accepts test card numbers only.',
    },
  }
}

export type IbanOutcome = { kind: 'invalid'; error: DeclineDetails } | { kind: 'processing'; eventually: 'succeed' | 'fail' }

export const sepaFailure: DeclineDetails = {
  code: 'payment_failed',
  declineCode: 'insufficient_funds',
  message: 'The bank refused the direct debit: insufficient funds.',
}

/** Any valid IBAN debits after the delay; one ending in 3002 is refused by the bank then. */
export function ibanOutcome(input: string): IbanOutcome {
  const iban = normaliseIban(input)
  if (!isValidIban(iban)) {
    return {
      kind: 'invalid',
      error: { code: 'invalid_iban', declineCode: null, message: 'The IBAN you provided is invalid.' },
    }
  }
  return { kind: 'processing', eventually: iban.endsWith('3002') ? 'fail' : 'succeed' }
}

export function normaliseIban(input: string): string {
  return input.replace(/\s/g, '').toUpperCase()
}

function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const character of rearranged) {
    const value = /\d/.test(character) ? character : String(character.charCodeAt(0) - 55)
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1
}

function passesLuhn(digits: string): boolean {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** The bank's reasons for refusing a payout, by Stripe's failure code (the wording of Stripe's failure messages). */
export const payoutFailureMessages: Record<string, string> = {
  no_account: 'The bank account details on file are probably incorrect. No bank account could be located with those details.',
  account_closed: 'The bank account has been closed.',
  insufficient_funds: 'The account has insufficient funds to cover the payout.',
  debit_not_authorized: 'Debit transactions are not approved on the bank account.',
  invalid_currency: 'The bank was unable to process this payout because of its currency.',
}

/**
 * Stripe's test bank accounts for Connect payouts ("Testing Stripe Connect",
 * docs.stripe.com/connect/testing, "Payouts"), matched by how the number
 * ends: IBANs ending 3001 fail with `no_account`, 3002 `account_closed`,
 * 3003 `insufficient_funds`, 3004 `debit_not_authorized`, 3005
 * `invalid_currency` (DE62370400440532013001 …); account numbers ending
 * 1116, 1113, 2227, 3335 and 0440 fail the same five ways (000111111116 …).
 * Any other account is paid. Answers the failure code, or null.
 */
const payoutFailureEndings: ReadonlyArray<[string, string]> = [
  ['3001', 'no_account'],
  ['3002', 'account_closed'],
  ['3003', 'insufficient_funds'],
  ['3004', 'debit_not_authorized'],
  ['3005', 'invalid_currency'],
  ['1116', 'no_account'],
  ['1113', 'account_closed'],
  ['2227', 'insufficient_funds'],
  ['3335', 'debit_not_authorized'],
  ['0440', 'invalid_currency'],
]

export function payoutFailureFor(accountNumber: string): string | null {
  const digits = accountNumber.replace(/\s/g, '')
  return payoutFailureEndings.find(([ending]) => digits.endsWith(ending))?.[1] ?? null
}

export type DocumentCheck = { outcome: 'verified'; asksForAddressProof: boolean } | { outcome: 'rejected'; reason: string }

/**
 * What the sandbox's document check decides, from the name the user's file
 * had (Stripe's test mode has special files; a name is what a tester can
 * choose): `unreadable` in the name is rejected as unreadable, `expired` as
 * expired; `address_no_match` is verified but then asks for an additional
 * document (a proof of address). Anything else is verified.
 */
export function documentCheckFor(fileName: string): DocumentCheck {
  const name = fileName.toLowerCase()
  if (name.includes('unreadable')) {
    return { outcome: 'rejected', reason: 'The document could not be read. Upload a sharp photo or scan showing all four corners.' }
  }
  if (name.includes('expired')) return { outcome: 'rejected', reason: 'The document has expired. Upload a valid one.' }
  return { outcome: 'verified', asksForAddressProof: name.includes('address_no_match') }
}

/**
 * US tax identifiers, as Stripe's test values behave: the last four digits
 * `1111` cannot be matched (the provider then asks for the full number),
 * the full number `111111111` is rejected; anything else is verified.
 */
export function ssnLast4CheckFor(digits: string): 'verified' | 'unmatched' {
  return digits === '1111' ? 'unmatched' : 'verified'
}

export function idNumberCheckFor(digits: string): 'verified' | 'rejected' {
  return digits === '111111111' ? 'rejected' : 'verified'
}
