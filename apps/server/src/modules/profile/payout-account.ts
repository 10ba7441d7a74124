import type { Kysely } from 'kysely'
import type { ConnectedAccount, ConnectedAccounts } from '../../adapters/payment-provider/connected-accounts-port.ts'
import type { Database } from '../../db/schema.ts'
import { bankAccountReplaced } from '../payouts/bank-account-replaced.ts'
import { forwardAccountProfile } from './account-profile.ts'
import { payoutBankAccountOf } from './bank-accounts-repository.ts'
import { payoutContactOf } from './profile-repository.ts'

/**
 * The seller's connected account at the payment provider: where released
 * money lands, what identity documents and the bank account are attached
 * to, and what pays out. One per user, created on first need (a transfer, a
 * document, bank details) in the user's active country.
 */
export interface PayoutAccountDeps {
  db: Kysely<Database>
  connectedAccounts: ConnectedAccounts
}

/** Until onboarding has set a country (API clients can skip the web app's gate). */
const fallbackCountry = 'gb'

export async function ensureConnectedAccount(deps: PayoutAccountDeps, userId: string): Promise<ConnectedAccount> {
  const existing = await deps.connectedAccounts.findConnectedAccount(userId)
  if (existing) return existing
  const user = await payoutContactOf(deps.db, userId)
  // One key per user: concurrent first needs get the same account.
  const account = await deps.connectedAccounts.createConnectedAccount({
    userId,
    email: user.email,
    country: user.country_code ?? fallbackCountry,
    idempotencyKey: `connected-account:${userId}`,
  })
  try {
    await forwardAccountProfile(deps, userId, account.id)
  } catch {
    // Never in the way of what needed the account (a transfer, a document):
    // the payout requirements read forwards the profile again and shows what the provider refused.
  }
  return account
}

/** Hands the user's stored bank account to the provider as the account's payout destination. */
export async function attachBankAccount(deps: PayoutAccountDeps, userId: string, now: Date): Promise<void> {
  const bank = await payoutBankAccountOf(deps.db, userId)
  // An account linked with the provider's token has no number here: it was attached when it was linked (bank-accounts.ts).
  if (!bank?.account_number) return
  const account = await ensureConnectedAccount(deps, userId)
  await deps.connectedAccounts.setExternalBankAccount({
    accountId: account.id,
    country: bank.country,
    currency: bank.currency,
    accountNumber: bank.account_number,
    ...(bank.routing_number ? { routingNumber: bank.routing_number } : {}),
    last4: bank.last4,
    // A replaced bank account has a new id (bank-accounts.ts): one attachment per stored account.
    idempotencyKey: `external-account:${bank.id}`,
  })
  // A payout that failed to the old account is paid out again by the provider: the seller has acted.
  await bankAccountReplaced(deps.db, account.id, now)
}
