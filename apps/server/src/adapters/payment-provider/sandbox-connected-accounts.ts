import { createHash } from 'node:crypto'
import type {
  AccountProfile,
  AccountVerification,
  Balance,
  ConnectedAccount,
  ConnectedAccounts,
  ExternalBankAccountInput,
  NewConnectedAccountInput,
  Payout,
  TaxIdentifiersInput,
  TransferRecord,
  UploadIdentityDocumentInput,
} from './connected-accounts-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import { accountVerification, emitAccountUpdated, lockAccount, personOfSandboxAccount } from './sandbox-account-state.ts'
import type { SandboxDocuments } from './sandbox-documents.ts'
import { newSandboxId, type SandboxDb, type SandboxKernel } from './sandbox-kernel.ts'
import type { SandboxPayouts } from './sandbox-payouts.ts'
import { idNumberCheckFor, payoutFailureFor, ssnLast4CheckFor } from './sandbox-test-data.ts'

/**
 * The sandbox's connected accounts (connected-accounts-port.ts), as Stripe
 * Connect has them: the account, what it knows of the seller (profile, tax
 * identifiers, checked asynchronously), the bank account payouts go to, and
 * the transfers it received. Its identity documents are in
 * sandbox-documents.ts, its balance and payouts in sandbox-payouts.ts.
 */
export const accountQueues = { checkTaxIdentifiers: 'sandbox-check-tax-identifiers' } as const

export class SandboxConnectedAccounts implements ConnectedAccounts {
  readonly #kernel: SandboxKernel
  readonly #payouts: SandboxPayouts
  readonly #documents: SandboxDocuments
  readonly #options: { documentCheckSeconds: number }

  constructor(
    kernel: SandboxKernel,
    parts: { payouts: SandboxPayouts; documents: SandboxDocuments },
    options: { documentCheckSeconds: number },
  ) {
    this.#kernel = kernel
    this.#payouts = parts.payouts
    this.#documents = parts.documents
    this.#options = options
  }

  async createQueues(): Promise<void> {
    await this.#kernel.jobs.createQueue(accountQueues.checkTaxIdentifiers, { retryLimit: 10, retryDelay: 5 })
  }

  async startWorkers(): Promise<void> {
    await this.#kernel.jobs.work<{ accountId: string }>(accountQueues.checkTaxIdentifiers, (data) =>
      this.#checkTaxIdentifiers(data.accountId),
    )
  }

  async createConnectedAccount(input: NewConnectedAccountInput): Promise<ConnectedAccount> {
    return this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'create_account', input, async () => {
        const account = await trx
          .insertInto('sandbox_accounts')
          .values({
            id: newSandboxId('acct'),
            user_id: input.userId,
            email: input.email,
            country: input.country.toLowerCase(),
            created_at: this.#kernel.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await this.#kernel.emit(trx, 'account.updated', {
          id: account.id,
          object: 'account',
          country: account.country,
          email: account.email,
          payouts_enabled: true,
          metadata: { user_id: account.user_id },
        })
        return { id: account.id, email: account.email, country: account.country }
      }),
    )
  }

  async findConnectedAccount(userId: string): Promise<ConnectedAccount | null> {
    const account = await this.#kernel.db
      .selectFrom('sandbox_accounts')
      .select(['id', 'email', 'country'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst()
    return account ?? null
  }

  async findAccountOwner(accountId: string): Promise<string | null> {
    const account = await this.#kernel.db.selectFrom('sandbox_accounts').select('user_id').where('id', '=', accountId).executeTakeFirst()
    return account?.user_id ?? null
  }

  async listTransfers(accountId: string): Promise<TransferRecord[]> {
    const rows = await this.#kernel.db
      .selectFrom('sandbox_transfers')
      .selectAll()
      .where('destination_account', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    return rows.map((row) => ({
      id: row.id,
      amount: row.amount,
      currency: row.currency,
      destinationAccount: row.destination_account,
      transactionId: row.transaction_id,
      created: row.created_at,
    }))
  }

  getBalance(accountId: string): Promise<Balance> {
    return this.#payouts.getBalance(accountId)
  }

  listPayouts(accountId: string): Promise<Payout[]> {
    return this.#payouts.listPayouts(accountId)
  }

  uploadIdentityDocument(input: UploadIdentityDocumentInput): Promise<{ fileId: string }> {
    return this.#documents.uploadIdentityDocument(input)
  }

  async personOf(accountId: string): Promise<string> {
    if ((await this.findAccountOwner(accountId)) === null) throw new PaymentProviderError('not_found', `No such account: ${accountId}`)
    return personOfSandboxAccount(accountId)
  }

  async getAccountVerification(accountId: string): Promise<AccountVerification> {
    return this.#kernel.transaction(async (trx) => accountVerification(trx, accountId))
  }

  /**
   * Like Stripe for a US individual: the identifiers given are pending until
   * checked (`documentCheckSeconds` later), and no longer due meanwhile.
   * What the check will find is decided now from the test values; the
   * digits themselves are not kept (nor in the idempotency record).
   */
  async setTaxIdentifiers(input: TaxIdentifiersInput): Promise<void> {
    if (input.ssnLast4 !== undefined && !/^\d{4}$/.test(input.ssnLast4))
      throw new PaymentProviderError('invalid_request', 'ssn_last_4 must be 4 digits')
    if (input.idNumber !== undefined && !/^\d{9}$/.test(input.idNumber))
      throw new PaymentProviderError('invalid_request', 'id_number must be 9 digits')
    // Not even a hash of the digits is kept: 10,000 possible last fours are quickly tried.
    const request = { accountId: input.accountId, ssnLast4: input.ssnLast4 !== undefined, idNumber: input.idNumber !== undefined }
    await this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'set_tax_identifiers', request, async () => {
        await lockUsAccount(trx, input.accountId, 'Tax identifiers are asked of US individuals only')
        await trx
          .updateTable('sandbox_accounts')
          .set({
            ...(input.ssnLast4 !== undefined
              ? { ssn_last_4_status: 'pending' as const, ssn_last_4_outcome: ssnLast4CheckFor(input.ssnLast4) }
              : {}),
            ...(input.idNumber !== undefined
              ? { id_number_status: 'pending' as const, id_number_outcome: idNumberCheckFor(input.idNumber) }
              : {}),
          })
          .where('id', '=', input.accountId)
          .execute()
        await this.#kernel.jobs.send(
          accountQueues.checkTaxIdentifiers,
          { accountId: input.accountId },
          { db: trx, startAfter: this.#options.documentCheckSeconds },
        )
        await emitAccountUpdated(this.#kernel, trx, input.accountId)
        return null
      }),
    )
  }

  async setExternalBankAccount(input: ExternalBankAccountInput): Promise<void> {
    const failure = payoutFailureFor(input.accountNumber)
    const request = { ...input, accountNumber: createHash('sha256').update(input.accountNumber).digest('hex') }
    await this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'set_external_account', request, async () => {
        await lockAccount(trx, input.accountId)
        await this.#replaceBankAccount(trx, input.accountId, {
          country: input.country,
          currency: input.currency,
          last4: input.last4,
          payoutFailureCode: failure,
        })
        return null
      }),
    )
  }

  /**
   * Stripe's `external_account: btok_…`. The sandbox issues no such tokens
   * itself (Plaid does, through its processor integration): it takes any
   * token of Stripe's form, once, as a US checking account (Plaid links US
   * banks only). The token's last four characters, when digits, stand for
   * the account number's (so the payout test numbers 3001 and 1116 work
   * here too); otherwise the account ends 6789.
   */
  async attachBankAccountToken(input: { accountId: string; token: string; idempotencyKey: string }): Promise<{ last4: string }> {
    if (!/^btok_[A-Za-z0-9_]{4,}$/.test(input.token)) {
      throw new PaymentProviderError('invalid_request', 'Not a bank-account token (btok_…)', { param: 'external_account' })
    }
    const tokenSha256 = createHash('sha256').update(input.token).digest('hex')
    const tail = input.token.slice(-4)
    const last4 = /^\d{4}$/.test(tail) ? tail : '6789'
    const request = { accountId: input.accountId, token: tokenSha256 }
    return this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'attach_bank_account_token', request, async () => {
        await lockUsAccount(trx, input.accountId, 'A bank-account token from Plaid is a US account: the account is not in the US', {
          param: 'external_account',
        })
        const now = this.#kernel.now()
        const spent = await trx
          .insertInto('sandbox_spent_bank_tokens')
          .values({ token_sha256: tokenSha256, account_id: input.accountId, spent_at: now })
          .onConflict((conflict) => conflict.column('token_sha256').doNothing())
          .returning('token_sha256')
          .executeTakeFirst()
        if (!spent)
          throw new PaymentProviderError('invalid_request', 'You cannot use a Stripe token more than once', { param: 'external_account' })
        await this.#replaceBankAccount(trx, input.accountId, {
          country: 'us',
          currency: 'usd',
          last4,
          payoutFailureCode: payoutFailureFor(last4),
        })
        return { last4 }
      }),
    )
  }

  async createAccountSession(accountId: string): Promise<{ clientSecret: string }> {
    return this.#kernel.transaction(async (trx) => {
      await lockAccount(trx, accountId)
      const id = newSandboxId('accs')
      const clientSecret = `${id}_secret_${newSandboxId('s').slice(2)}`
      // Stripe's account sessions last an hour.
      const expiresAt = new Date(this.#kernel.now().getTime() + 3_600_000)
      await trx
        .insertInto('sandbox_account_sessions')
        .values({ id, account_id: accountId, client_secret: clientSecret, expires_at: expiresAt })
        .execute()
      return { clientSecret }
    })
  }

  /**
   * Kept as given, replacing the last; what is still missing is due, as
   * Stripe asks it (accountVerification, sandbox-account-state.ts). Completing it can enable payouts,
   * so a run is scheduled, as after a verified document.
   */
  async updateAccountProfile(input: { accountId: string; profile: AccountProfile; idempotencyKey: string }): Promise<void> {
    if (input.profile.tosAcceptance && !input.profile.tosAcceptance.ip)
      throw new PaymentProviderError('invalid_request', 'tos_acceptance.ip is required with its date', { param: 'tos_acceptance[ip]' })
    await this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'update_account_profile', input, async () => {
        await lockAccount(trx, input.accountId)
        await trx
          .updateTable('sandbox_accounts')
          .set({ profile: JSON.stringify(input.profile) })
          .where('id', '=', input.accountId)
          .execute()
        await emitAccountUpdated(this.#kernel, trx, input.accountId)
        await this.#payouts.schedulePayoutRun(trx, input.accountId)
        return null
      }),
    )
  }

  /** Pactum's screens collect everything the sandbox asks for (it is never `provider_onboarding`): there is no page of its own to send anyone to. */
  async createOnboardingLink(input: { accountId: string }): Promise<{ url: string }> {
    await this.getAccountVerification(input.accountId)
    throw new PaymentProviderError('invalid_state', 'Nothing is due that Pactum does not collect itself')
  }

  async #checkTaxIdentifiers(accountId: string): Promise<void> {
    await this.#kernel.transaction(async (trx) => {
      await lockAccount(trx, accountId)
      const account = await trx
        .selectFrom('sandbox_accounts')
        .select(['ssn_last_4_status', 'ssn_last_4_outcome', 'id_number_status', 'id_number_outcome'])
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow()
      const ssnDue = account.ssn_last_4_status === 'pending' && account.ssn_last_4_outcome !== null
      const idDue = account.id_number_status === 'pending' && account.id_number_outcome !== null
      // Checked already (a retry, or two submissions and one job each).
      if (!ssnDue && !idDue) return
      await trx
        .updateTable('sandbox_accounts')
        .set({
          ...(ssnDue && account.ssn_last_4_outcome ? { ssn_last_4_status: account.ssn_last_4_outcome, ssn_last_4_outcome: null } : {}),
          ...(idDue && account.id_number_outcome ? { id_number_status: account.id_number_outcome, id_number_outcome: null } : {}),
        })
        .where('id', '=', accountId)
        .execute()
      await emitAccountUpdated(this.#kernel, trx, accountId)
      await this.#payouts.schedulePayoutRun(trx, accountId)
    })
  }

  /** The account's one payout bank account, replaced (as Stripe's `default_for_currency` with the older ones removed); payouts may now run. */
  async #replaceBankAccount(
    trx: SandboxDb,
    accountId: string,
    bank: { country: string; currency: string; last4: string; payoutFailureCode: string | null },
  ): Promise<void> {
    const values = {
      id: newSandboxId('ba'),
      country: bank.country.toLowerCase(),
      currency: bank.currency.toLowerCase(),
      last4: bank.last4,
      payout_failure_code: bank.payoutFailureCode,
      updated_at: this.#kernel.now(),
    }
    await trx
      .insertInto('sandbox_external_accounts')
      .values({ account_id: accountId, ...values })
      .onConflict((conflict) => conflict.column('account_id').doUpdateSet(values))
      .execute()
    await emitAccountUpdated(this.#kernel, trx, accountId)
    await this.#payouts.schedulePayoutRun(trx, accountId)
  }
}

/** Locks the account, which must be a US one: only US individuals give tax identifiers or a Plaid bank account. */
async function lockUsAccount(trx: SandboxDb, accountId: string, refusal: string, options?: { param: string }): Promise<void> {
  await lockAccount(trx, accountId)
  const account = await trx.selectFrom('sandbox_accounts').select('country').where('id', '=', accountId).executeTakeFirstOrThrow()
  if (account.country !== 'us') throw new PaymentProviderError('invalid_request', refusal, options)
}
