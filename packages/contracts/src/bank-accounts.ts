import { z } from 'zod'

/**
 * Payout bank details and the bank-link provider (spec §3 Debit account,
 * Bank-link request; §6; §7 Profile and payout). snake_case as the API.
 * The full account number goes in, never comes out: responses carry last4.
 */

const optionalText = z.string().max(64).optional()

/**
 * POST /me/debit_account. Which fields are needed depends on the country
 * (packages/domain/src/bank-details.ts): `iban` (SEPA and other IBAN
 * countries); gb `sort_code` + `account_number`; us `routing_number` +
 * `account_number` + `account_type`; au `bsb` + `account_number`; my
 * `bank_code` (a Malaysian bank's routingNumber) + `account_number`; ca
 * `transit_number` + `institution_number` + `account_number`; elsewhere
 * `bank_code` + `account_number`. `country` defaults to the active country
 * (another SEPA country is accepted for a SEPA user); `currency` to the
 * country's payout currency.
 */
export const debitAccountBodySchema = z
  .object({
    account_holder_name: z.string().max(300),
    country: z.string().max(2).optional(),
    currency: z.string().max(3).optional(),
    iban: z.string().max(64).optional(),
    sort_code: optionalText,
    account_number: optionalText,
    routing_number: optionalText,
    account_type: optionalText,
    bsb: optionalText,
    bank_code: optionalText,
    transit_number: optionalText,
    institution_number: optionalText,
  })
  .meta({ id: 'DebitAccountBody' })
export type DebitAccountBody = z.infer<typeof debitAccountBodySchema>

export const bankAccountSchema = z
  .object({
    id: z.string(),
    account_holder_name: z.string(),
    /** Lower-case ISO 3166-1 alpha-2. */
    country: z.string(),
    currency: z.string(),
    /** The last four characters of the account number (or IBAN). */
    last4: z.string(),
    bank_name: z.string().optional(),
    /** Sort code, ABA routing number, BSB, `transit-institution` or bank code; absent for IBAN accounts. */
    routing_number: z.string().optional(),
    account_type: z.enum(['checking', 'savings']).optional(),
  })
  .meta({ id: 'BankAccount' })
export type BankAccount = z.infer<typeof bankAccountSchema>

/** GET and POST /me/debit_account (spec §3: card and bank_account; cards are not taken yet). */
export const debitAccountSchema = z.object({ bank_account: bankAccountSchema.nullable(), card: z.null() }).meta({ id: 'DebitAccount' })
export type DebitAccount = z.infer<typeof debitAccountSchema>

/** GET /me/plaid/link_token. */
export const linkTokenSchema = z
  .object({
    link_token: z.string(),
    /** Which link screen the browser opens with the token: Plaid Link, or the sandbox's stand-in. */
    provider: z.enum(['sandbox', 'plaid']),
  })
  .meta({ id: 'LinkToken' })
export type LinkToken = z.infer<typeof linkTokenSchema>

/** POST /me/plaid/link_bank_details. */
export const linkBankDetailsBodySchema = z
  .object({ public_token: z.string().min(1).max(200), account_id: z.string().min(1).max(200) })
  .meta({ id: 'LinkBankDetailsBody' })
export type LinkBankDetailsBody = z.infer<typeof linkBankDetailsBodySchema>

export const linkBankDetailsResponseSchema = z.object({ bank_account: bankAccountSchema }).meta({ id: 'LinkBankDetailsResponse' })

/** POST /sandbox/plaid/link/{link_token}/complete (sandbox only: what the sandbox link screen calls). */
export const sandboxLinkCompleteBodySchema = z
  .object({ institution: z.enum(['success', 'failure']) })
  .meta({ id: 'SandboxLinkCompleteBody' })
export const sandboxLinkCompleteResponseSchema = z
  .object({
    public_token: z.string(),
    accounts: z.array(z.object({ id: z.string(), name: z.string(), mask: z.string(), subtype: z.enum(['checking', 'savings']) })),
  })
  .meta({ id: 'SandboxLinkCompleteResponse' })
export type SandboxLinkCompleteResponse = z.infer<typeof sandboxLinkCompleteResponseSchema>
