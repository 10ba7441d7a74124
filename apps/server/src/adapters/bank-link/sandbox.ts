import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { BankLink, BankLinkExchangeResult, LinkedBankAccount } from './port.ts'

/**
 * The sandbox bank-link provider: no network. Tokens live in the database
 * (sandbox_bank_link_tokens) so that every process shares them. The sandbox
 * link screen completes a link token with an institution outcome
 * (`success` | `failure`) and gets a `public-sandbox-…` token and the test
 * account's id; exchanging a success token yields the test account below.
 */
export const sandboxTestAccount: LinkedBankAccount = {
  destination: { kind: 'account_numbers', routingNumber: '110000000', accountNumber: '1111222233336789' },
  mask: '6789',
  accountType: 'checking',
  bankName: 'Sandbox Bank',
  country: 'us',
  currency: 'usd',
}

export const sandboxAccountId = 'sandbox-account-checking'
const linkTokenTtlMs = 4 * 60 * 60 * 1000
const publicTokenTtlMs = 30 * 60 * 1000

function randomToken(prefix: string): string {
  return `${prefix}-${randomBytes(18).toString('base64url')}`
}

export type SandboxCompleteResult =
  { ok: true; publicToken: string; accounts: { id: string; name: string; mask: string; subtype: 'checking' | 'savings' }[] } | { ok: false }

export class SandboxBankLink implements BankLink {
  readonly name = 'sandbox'
  readonly #db: Kysely<Database>

  constructor(options: { db: Kysely<Database> }) {
    this.#db = options.db
  }

  async createLinkToken(input: { userId: string; now: Date }): Promise<{ linkToken: string; expiresAt: Date }> {
    const linkToken = randomToken('link-sandbox')
    const expiresAt = new Date(input.now.getTime() + linkTokenTtlMs)
    await this.#db
      .insertInto('sandbox_bank_link_tokens')
      .values({
        token: linkToken,
        kind: 'link',
        user_id: input.userId,
        link_token: null,
        account_id: null,
        outcome: null,
        created_at: input.now,
        expires_at: expiresAt,
        used_at: null,
      })
      .execute()
    return { linkToken, expiresAt }
  }

  /** What the sandbox link screen calls: the link token is the capability (single use). */
  async completeLink(input: { linkToken: string; institution: 'success' | 'failure'; now: Date }): Promise<SandboxCompleteResult> {
    return this.#db.transaction().execute(async (trx) => {
      const spent = await trx
        .updateTable('sandbox_bank_link_tokens')
        .set({ used_at: input.now })
        .where('token', '=', input.linkToken)
        .where('kind', '=', 'link')
        .where('used_at', 'is', null)
        .where('expires_at', '>', input.now)
        .returning(['user_id'])
        .executeTakeFirst()
      if (!spent) return { ok: false } as const
      const publicToken = randomToken('public-sandbox')
      await trx
        .insertInto('sandbox_bank_link_tokens')
        .values({
          token: publicToken,
          kind: 'public',
          user_id: spent.user_id,
          link_token: input.linkToken,
          account_id: sandboxAccountId,
          outcome: input.institution,
          created_at: input.now,
          expires_at: new Date(input.now.getTime() + publicTokenTtlMs),
          used_at: null,
        })
        .execute()
      return {
        ok: true,
        publicToken,
        accounts: [
          { id: sandboxAccountId, name: 'Sandbox Checking', mask: sandboxTestAccount.mask ?? '', subtype: sandboxTestAccount.accountType },
        ],
      } as const
    })
  }

  async exchangePublicToken(input: { userId: string; publicToken: string; accountId: string; now: Date }): Promise<BankLinkExchangeResult> {
    if (!input.publicToken.startsWith('public-sandbox-')) {
      return { ok: false, reason: 'invalid_public_token', message: 'The sandbox only accepts public tokens it issued (public-sandbox-…)' }
    }
    const spent = await this.#db
      .updateTable('sandbox_bank_link_tokens')
      .set({ used_at: input.now })
      .where('token', '=', input.publicToken)
      .where('kind', '=', 'public')
      .where('user_id', '=', input.userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', input.now)
      .returning(['account_id', 'outcome'])
      .executeTakeFirst()
    if (!spent)
      return { ok: false, reason: 'invalid_public_token', message: 'The bank link has expired or was already used: link your bank again' }
    if (spent.outcome !== 'success') {
      return {
        ok: false,
        reason: 'institution_error',
        message: 'Your bank could not be linked: try again or enter your bank details manually',
      }
    }
    if (spent.account_id !== input.accountId)
      return { ok: false, reason: 'invalid_account_id', message: 'Not an account of this bank link' }
    return { ok: true, account: sandboxTestAccount }
  }

  /** The sandbox's exchange hands out no Item (nothing is kept at a provider), so none ever comes back to be removed. */
  removeItem(): Promise<void> {
    return Promise.resolve()
  }
}
