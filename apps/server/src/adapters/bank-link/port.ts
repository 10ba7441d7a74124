/**
 * The bank-linking provider (spec §3 Bank-link request, §6: offered only for
 * country `us`), shaped after Plaid Link: the server asks for a link token,
 * the browser runs the provider's link screen with it and gets a public token
 * and the chosen account id, and the server exchanges those for where payouts
 * can go. Adapters: `sandbox.ts` (default, no network) and `plaid.ts` (when
 * PLAID_CLIENT_ID / PLAID_SECRET are set), chosen in adapters/providers.ts.
 */

/**
 * How the linked account reaches the payment provider: its numbers (the
 * sandbox, as a bank's statement gives them), or a single-use token that the
 * payment provider itself resolves (Plaid's processor integration makes a
 * Stripe bank-account token, `btok_…`; Pactum never sees the number).
 */
export type PayoutDestination =
  | {
      kind: 'account_numbers'
      /** ABA routing number. */
      routingNumber: string
      /** The full account number: secret, never log it. */
      accountNumber: string
    }
  | { kind: 'provider_token'; token: string }

export interface LinkedBankAccount {
  destination: PayoutDestination
  /** The account number's last four digits as the bank link shows them (the payment provider's answer wins when it has one). */
  mask: string | null
  accountType: 'checking' | 'savings'
  bankName: string
  /** Lower-case ISO 3166-1 alpha-2 and currency. */
  country: string
  currency: string
}

/**
 * What the provider keeps of a link (Plaid's Item, which Plaid bills and
 * which holds the seller's bank login): removed with `removeItem` once the
 * account is no longer Pactum's payout account. `accessToken` is a secret.
 */
export interface BankLinkItem {
  itemId: string
  accessToken: string
}

export type BankLinkExchangeResult =
  | { ok: true; account: LinkedBankAccount; item?: BankLinkItem }
  | {
      ok: false
      /** `institution_error`: the bank refused the link; `invalid_public_token`: unknown, used, expired or someone else's; `invalid_account_id`. */
      reason: 'institution_error' | 'invalid_public_token' | 'invalid_account_id'
      message: string
    }

export interface BankLink {
  /** Tells the browser which link screen to open (the link token's answer carries it). */
  readonly name: 'sandbox' | 'plaid'
  createLinkToken(input: { userId: string; now: Date }): Promise<{ linkToken: string; expiresAt: Date }>
  /** Single use: a public token is spent by its first exchange, whatever the outcome. */
  exchangePublicToken(input: { userId: string; publicToken: string; accountId: string; now: Date }): Promise<BankLinkExchangeResult>
  /**
   * Ends the link at the provider. An Item the provider no longer knows
   * (removed before, a retry after a lost answer) counts as removed; any
   * other failure throws, for the caller's job to retry.
   */
  removeItem(item: BankLinkItem): Promise<void>
}
