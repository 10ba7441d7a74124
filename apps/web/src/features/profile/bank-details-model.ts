import type { DebitAccountBody } from '@pactum/contracts/bank-accounts'
import {
  type BankAccountScheme,
  type BankDetailsField,
  type BankDetailsProblem,
  usesIban,
  validateBankDetails,
} from '@pactum/domain/bank-details'

/** The inputs of the manual form; which of them show depends on the scheme. */
export type BankFormField = Exclude<BankDetailsField, 'currency'>
export type BankFormValues = Record<BankFormField, string>
export type BankFormErrors = Partial<Record<BankDetailsField, BankDetailsProblem | 'server'>>

export function schemeOf(country: string): BankAccountScheme {
  const code = country.toLowerCase()
  if (usesIban(code)) return 'iban'
  if (code === 'gb' || code === 'us' || code === 'au' || code === 'my' || code === 'ca') return code
  return 'generic'
}

/** The fields of each scheme, in the order they are shown (after the account holder). */
export const schemeFields: Record<BankAccountScheme, readonly BankFormField[]> = {
  iban: ['iban'],
  gb: ['sort_code', 'account_number'],
  us: ['routing_number', 'account_number', 'account_type'],
  au: ['bsb', 'account_number'],
  my: ['bank_code', 'account_number'],
  ca: ['transit_number', 'institution_number', 'account_number'],
  generic: ['bank_code', 'account_number'],
}

export function emptyValues(holderName: string): BankFormValues {
  return {
    account_holder_name: holderName,
    iban: '',
    sort_code: '',
    account_number: '',
    routing_number: '',
    account_type: '',
    bsb: '',
    bank_code: '',
    transit_number: '',
    institution_number: '',
  }
}

/** Only the fields the country uses, as typed (the server normalises). */
function relevant(values: BankFormValues, country: string): Partial<BankFormValues> {
  const input: Partial<BankFormValues> = { account_holder_name: values.account_holder_name.trim() }
  for (const field of schemeFields[schemeOf(country)]) input[field] = values[field].trim()
  return input
}

/** The same checks as the server (packages/domain), keyed by field. */
export function validateBankForm(values: BankFormValues, country: string): BankFormErrors {
  const result = validateBankDetails(country, relevant(values, country))
  const errors: BankFormErrors = {}
  if (!result.ok) for (const error of result.errors) errors[error.field] ??= error.problem
  return errors
}

export function debitAccountBody(values: BankFormValues, country: string): DebitAccountBody {
  return relevant(values, country) as DebitAccountBody
}

const knownFields: readonly string[] = [...Object.keys(emptyValues('')), 'currency']
const knownProblems: readonly string[] = [
  'required',
  'invalid_format',
  'invalid_length',
  'invalid_checksum',
  'wrong_country',
  'unknown_bank',
  'unsupported',
]

/** The fields a 400 validation_failed answer points at (`details.fields[]`: `body.iban`, problem). */
export function serverBankErrors(details: Record<string, unknown>): BankFormErrors {
  const errors: BankFormErrors = {}
  const entries = Array.isArray(details.fields) ? (details.fields as unknown[]) : []
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue
    const { field, problem } = entry as { field?: unknown; problem?: unknown }
    if (typeof field !== 'string') continue
    const name = field.replace(/^body\./, '').split('.')[0] ?? ''
    if (!knownFields.includes(name)) continue
    errors[name as BankDetailsField] =
      typeof problem === 'string' && knownProblems.includes(problem) ? (problem as BankDetailsProblem) : 'server'
  }
  return errors
}
