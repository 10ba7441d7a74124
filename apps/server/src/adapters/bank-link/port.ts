/**
 * The bank-linking provider (spec §3 Bank-link request, §6: offered only for
 * country `us`), shaped after Plaid Link: the server asks for a link token,
 * the browser runs the provider's link screen with it and gets a public token
 * and the chosen account id, and the server exchanges those for the account's
 * routing and account numbers. Adapters: `sandbox.ts` (default, no network)
 * and a Plaid one (not written yet).
 */
export interface LinkedBankAccount {
  /** ABA routing number. */
  routingNumber: string
  /** The full account number: secret, never log it. */
  accountNumber: string
  accountType: 'checking' | 'savings'
  bankName: string
  /** Lower-case ISO 3166-1 alpha-2 and currency. */
  country: string
  currency: string
}

export type BankLinkExchangeResult =
  | { ok: true; account: LinkedBankAccount }
  | {
      ok: false
      /** `institution_error`: the bank refused the link; `invalid_public_token`: unknown, used, expired or someone else's; `invalid_account_id`. */
      reason: 'institution_error' | 'invalid_public_token' | 'invalid_account_id'
      message: string
    }

export interface BankLink {
  readonly name: 'sandbox' | 'plaid'
  createLinkToken(input: { userId: string; now: Date }): Promise<{ linkToken: string; expiresAt: Date }>
  /** Single use: a public token is spent by its first exchange, whatever the outcome. */
  exchangePublicToken(input: { userId: string; publicToken: string; accountId: string; now: Date }): Promise<BankLinkExchangeResult>
}
