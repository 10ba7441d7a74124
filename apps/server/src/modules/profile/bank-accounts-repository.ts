import type { NormalisedBankDetails } from '@pactum/domain/bank-details'
import type { Kysely } from 'kysely'
import type { BankAccountsTable, Database } from '../../db/schema.ts'

/** The user's one payout bank account, replaced on update (0013-bank-accounts). */

export type StoredBankAccount = Pick<
  BankAccountsTable,
  'id' | 'account_holder_name' | 'country' | 'currency' | 'last4' | 'bank_name' | 'routing_number' | 'account_type'
>

/** What is stored of a bank account: the number only when Pactum was given it (typed, or the sandbox bank link). */
export type StoredDetails = Omit<NormalisedBankDetails, 'accountNumber'> & {
  accountNumber: string | null
  /** A linked account's link (linkFingerprint), so that a retried link call finds it. */
  linkFingerprint?: string
}

export async function findBankAccount(db: Kysely<Database>, userId: string): Promise<StoredBankAccount | undefined> {
  return (
    db
      .selectFrom('bank_accounts')
      // Never select account_number here.
      .select(['id', 'account_holder_name', 'country', 'currency', 'last4', 'bank_name', 'routing_number', 'account_type'])
      .where('user_id', '=', userId)
      .executeTakeFirst()
  )
}

export async function hasBankAccount(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('bank_accounts').select('id').where('user_id', '=', userId).executeTakeFirst()
  return !!row
}

/** The account a bank link stored, found by the link's fingerprint. */
export async function findLinkedWith(db: Kysely<Database>, userId: string, fingerprint: string): Promise<StoredBankAccount | undefined> {
  return db
    .selectFrom('bank_accounts')
    .select(['id', 'account_holder_name', 'country', 'currency', 'last4', 'bank_name', 'routing_number', 'account_type'])
    .where('user_id', '=', userId)
    .where('link_fingerprint', '=', fingerprint)
    .executeTakeFirst()
}

/** Insert or replace the user's one bank account under `id`. */
export async function upsertBankAccount(
  db: Kysely<Database>,
  userId: string,
  details: StoredDetails,
  source: 'manual' | 'bank_link',
  now: Date,
  id: string,
): Promise<StoredBankAccount> {
  const values = {
    source,
    scheme: details.scheme,
    country: details.country,
    currency: details.currency,
    account_holder_name: details.accountHolderName,
    account_number: details.accountNumber,
    last4: details.last4,
    routing_number: details.routingNumber,
    account_type: details.accountType,
    bank_name: details.bankName,
    link_fingerprint: details.linkFingerprint ?? null,
    updated_at: now,
  }
  // A replaced account gets a new id: it is a different payout destination.
  return db
    .insertInto('bank_accounts')
    .values({ id, user_id: userId, created_at: now, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ id, created_at: now, ...values }))
    .returning(['id', 'account_holder_name', 'country', 'currency', 'last4', 'bank_name', 'routing_number', 'account_type'])
    .executeTakeFirstOrThrow()
}

/** The stored account with its number, to be handed to the payment provider as the payout destination. */
export async function payoutBankAccountOf(
  db: Kysely<Database>,
  userId: string,
): Promise<
  { id: string; country: string; currency: string; account_number: string | null; routing_number: string | null; last4: string } | undefined
> {
  return db
    .selectFrom('bank_accounts')
    .select(['id', 'country', 'currency', 'account_number', 'routing_number', 'last4'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
}
