import { createHash } from 'node:crypto'
import type { BankAccount, DebitAccount, DebitAccountBody, LinkToken } from '@pactum/contracts/bank-accounts'
import { type BankDetailsInput, type NormalisedBankDetails, validateBankDetails } from '@pactum/domain/bank-details'
import { isSepaCountry, isSupportedCountry } from '@pactum/domain/countries'
import type { Kysely } from 'kysely'
import type { BankLink, LinkedBankAccount } from '../../adapters/bank-link/port.ts'
import { PaymentProviderError } from '../../adapters/payment-provider/provider-error.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { uuidV7 } from '../../ids.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { bankAccountReplaced } from '../payouts/bank-account-replaced.ts'
import { retireBankLinkItems } from './bank-link-item-removal.ts'
import { insertBankLinkItem } from './bank-link-items-repository.ts'
import {
  findBankAccount,
  findLinkedWith,
  type StoredBankAccount,
  type StoredDetails,
  upsertBankAccount,
} from './bank-accounts-repository.ts'
import { attachBankAccount, ensureConnectedAccount, type PayoutAccountDeps } from './payout-account.ts'
import { countryCodeOf, namesOf } from './profile-repository.ts'

/**
 * Payout bank details (spec §3 Debit account, Bank-link request; §6; DESIGN §4).
 * One bank account per user, replaced on update. The full account number is
 * stored (see 0013-bank-accounts) but never returned, logged, or put in an
 * error message: responses carry last4 only.
 */

type FieldProblem = { field: string; message: string; problem?: string }

function validationFailed(fields: FieldProblem[]): AppError {
  const first = fields[0]
  return new AppError('validation_failed', first ? `${first.field}: ${first.message}` : 'Invalid bank details', {
    details: { ...(first ? { field: first.field } : {}), fields },
  })
}

async function activeCountry(db: Kysely<Database>, userId: string): Promise<string> {
  const countryCode = await countryCodeOf(db, userId)
  if (!countryCode) throw new AppError('active_country_not_set', 'Choose your country first')
  return countryCode
}

function toBankAccount(row: StoredBankAccount): BankAccount {
  return {
    id: row.id,
    account_holder_name: row.account_holder_name,
    country: row.country,
    currency: row.currency,
    last4: row.last4,
    ...(row.bank_name ? { bank_name: row.bank_name } : {}),
    ...(row.routing_number ? { routing_number: row.routing_number } : {}),
    ...(row.account_type ? { account_type: row.account_type } : {}),
  }
}

async function loadBankAccount(db: Kysely<Database>, userId: string): Promise<BankAccount | null> {
  const row = await findBankAccount(db, userId)
  return row ? toBankAccount(row) : null
}

/**
 * A bank link's public token is spent by its first exchange: a retry after a
 * lost answer must find the account that exchange stored rather than be
 * refused. Kept as a hash, as the token is a credential while unspent.
 */
function linkFingerprint(body: { public_token: string; account_id: string }): string {
  return createHash('sha256').update(`${body.public_token}\n${body.account_id}`).digest('hex')
}

/** Insert or replace the user's one bank account; `id` when the caller had to name it first (an idempotency key made from it). */
async function storeBankAccount(
  db: Kysely<Database>,
  userId: string,
  details: StoredDetails,
  source: 'manual' | 'bank_link',
  now: Date,
  id: string = uuidV7(now),
): Promise<BankAccount> {
  return toBankAccount(await upsertBankAccount(db, userId, details, source, now, id))
}

export async function getDebitAccount(db: Kysely<Database>, userId: string): Promise<DebitAccount> {
  await activeCountry(db, userId)
  return { bank_account: await loadBankAccount(db, userId), card: null }
}

/** The typed account replaces any linked one: its bank link's Item is removed at the provider. */
export async function saveDebitAccount(
  deps: { db: Kysely<Database>; jobs: JobQueue },
  userId: string,
  body: DebitAccountBody,
  now: Date,
): Promise<DebitAccount> {
  const { db } = deps
  const active = await activeCountry(db, userId)
  const country = body.country?.trim().toLowerCase() || active
  if (!isSupportedCountry(country))
    throw validationFailed([{ field: 'body.country', message: 'Not a supported country', problem: 'unsupported' }])
  // Payouts go to an account in the active country; a SEPA user may use any SEPA account.
  if (country !== active && !(isSepaCountry(country) && isSepaCountry(active))) {
    throw validationFailed([
      { field: 'body.country', message: 'The bank account must be in your payout country', problem: 'wrong_country' },
    ])
  }
  const { country: _country, ...input } = body
  const result = validateBankDetails(country, input satisfies BankDetailsInput)
  if (!result.ok) {
    throw validationFailed(result.errors.map((error) => ({ field: `body.${error.field}`, message: error.message, problem: error.problem })))
  }
  const bankAccount = await storeBankAccount(db, userId, result.normalised, 'manual', now)
  await retireBankLinkItems(deps, userId, now, bankAccount.id)
  return { bank_account: bankAccount, card: null }
}

export async function createLinkToken(db: Kysely<Database>, bankLink: BankLink, userId: string, now: Date): Promise<LinkToken> {
  const country = await activeCountry(db, userId)
  if (country !== 'us') {
    throw new AppError('unsupported_combination', 'Bank linking is offered only in the United States: enter your bank details manually')
  }
  const { linkToken } = await bankLink.createLinkToken({ userId, now })
  return { link_token: linkToken, provider: bankLink.name }
}

/**
 * The bank link's public token exchanged for the payout account, which is
 * then attached to the seller's connected account. With account numbers
 * (the sandbox) they go through the same checks as typed ones and are
 * stored, then attached; with the provider's token (Plaid → Stripe
 * `btok_…`) the token is attached first, under a key made from the new
 * account's id, and only then is the account stored, without a number.
 * A failure between the two leaves the provider with the new account and
 * Pactum with the old row: the seller links again and the provider's
 * account is replaced (one payout account per connected account).
 *
 * The provider's Item is recorded as soon as the exchange made it, for the
 * account about to be stored, and the Items behind earlier accounts are
 * removed once the new one is in place.
 */
export async function linkBankDetails(
  deps: PayoutAccountDeps & { bankLink: BankLink; jobs: JobQueue },
  userId: string,
  body: { public_token: string; account_id: string },
  now: Date,
): Promise<{ bank_account: BankAccount }> {
  const { db, bankLink } = deps
  const country = await activeCountry(db, userId)
  if (country !== 'us') {
    throw new AppError('unsupported_combination', 'Bank linking is offered only in the United States: enter your bank details manually')
  }
  const fingerprint = linkFingerprint(body)
  const linkedBefore = await findLinkedWith(db, userId, fingerprint)
  if (linkedBefore) return { bank_account: toBankAccount(linkedBefore) }
  const result = await bankLink.exchangePublicToken({ userId, publicToken: body.public_token, accountId: body.account_id, now })
  if (!result.ok) {
    const field = result.reason === 'invalid_account_id' ? 'body.account_id' : 'body.public_token'
    throw validationFailed([{ field, message: result.message, problem: result.reason }])
  }
  const user = await namesOf(db, userId)
  const holder = `${user.first_name} ${user.last_name}`.trim() || 'Account holder'
  const { account } = result
  const bankAccountId = uuidV7(now)
  if (result.item) {
    await insertBankLinkItem(db, { userId, provider: bankLink.name, ...result.item, bankAccountId, now })
  }
  if (account.destination.kind === 'provider_token') {
    const bankAccount = await attachTokenLinkedAccount(
      deps,
      userId,
      holder,
      { ...account, destination: account.destination },
      fingerprint,
      now,
      bankAccountId,
    )
    await retireBankLinkItems(deps, userId, now, bankAccount.id)
    return { bank_account: bankAccount }
  }
  // The provider's numbers go through the same checks as typed ones.
  const checked = validateBankDetails('us', {
    account_holder_name: holder,
    currency: account.currency,
    routing_number: account.destination.routingNumber,
    account_number: account.destination.accountNumber,
    account_type: account.accountType,
  })
  if (!checked.ok)
    throw validationFailed([
      { field: 'body.account_id', message: 'The linked account cannot receive payouts: enter your bank details manually' },
    ])
  const bankAccount = await storeBankAccount(
    db,
    userId,
    { ...checked.normalised, bankName: account.bankName, linkFingerprint: fingerprint },
    'bank_link',
    now,
    bankAccountId,
  )
  await attachBankAccount(deps, userId, now)
  await retireBankLinkItems(deps, userId, now, bankAccount.id)
  return { bank_account: bankAccount }
}

/** The payment provider refused the bank's token (an account it cannot pay out to): the seller's to act on, not a server fault. */
function asRefusedBankToken(error: unknown): unknown {
  if (!(error instanceof PaymentProviderError) || error.code !== 'invalid_request') return error
  return validationFailed([
    {
      field: 'body.public_token',
      message: 'Our payment provider cannot pay out to this bank account: link another or enter your bank details manually',
      problem: 'account_refused',
    },
  ])
}

async function attachTokenLinkedAccount(
  deps: PayoutAccountDeps,
  userId: string,
  holder: string,
  account: LinkedBankAccount & { destination: { kind: 'provider_token'; token: string } },
  fingerprint: string,
  now: Date,
  id: string,
): Promise<BankAccount> {
  const connected = await ensureConnectedAccount(deps, userId)
  const { last4 } = await deps.connectedAccounts
    .attachBankAccountToken({
      accountId: connected.id,
      token: account.destination.token,
      // The same key scheme as a typed account's attachment (payout-account.ts): one per stored account.
      idempotencyKey: `external-account:${id}`,
    })
    .catch((error: unknown) => {
      throw asRefusedBankToken(error)
    })
  await bankAccountReplaced(deps.db, connected.id, now)
  return storeBankAccount(
    deps.db,
    userId,
    {
      scheme: 'us',
      country: account.country,
      currency: account.currency as NormalisedBankDetails['currency'],
      accountHolderName: holder,
      accountNumber: null,
      last4,
      routingNumber: null,
      accountType: account.accountType,
      bankName: account.bankName,
      linkFingerprint: fingerprint,
    },
    'bank_link',
    now,
    id,
  )
}
