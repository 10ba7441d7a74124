import { createHash } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Database, SandboxPayoutsTable } from '../../db/schema.ts'
import type { DocumentStore } from '../document-store/port.ts'
import {
  type AccountDocumentSide,
  type AccountProfile,
  type AccountVerification,
  type Balance,
  type DocumentSide,
  type ExternalBankAccountInput,
  type IdentityDocumentKind,
  type Payout,
  PaymentProviderError,
  type TaxIdentifiersInput,
  type UploadIdentityDocumentInput,
} from './port.ts'
import { newSandboxId, type SandboxDb, type SandboxKernel } from './sandbox-kernel.ts'
import { documentCheckFor, idNumberCheckFor, payoutFailureFor, payoutFailureMessages, ssnLast4CheckFor } from './sandbox-test-data.ts'

/**
 * The sandbox's connected accounts beyond transfers, as Stripe Connect has
 * them: identity documents checked asynchronously, the bank account payouts
 * go to, and payouts on a schedule.
 *
 * Schedule: a run falls due `payoutDelaySeconds` after money lands (a
 * transfer) or after the account becomes able to receive payouts (a
 * document verified, a bank account set). A run pays out each currency's
 * available balance, if payouts are enabled (a bank account and a verified
 * identity document); the payout arrives (`payout.paid`) or fails
 * (`payout.failed`, the money returns to the balance) `payoutArrivalSeconds`
 * later. Stripe's default is a daily schedule; the delays are configurable
 * so that tests and demos see it happen.
 *
 * Documents: the bytes go to the document store (local files or S3) before
 * the row commits; the check streams them back and compares their SHA-256
 * with the one recorded at upload, as the provider reads what it checks.
 * Once the check has a result (or a newer upload replaced the document
 * before it), the document is deleted `documentRetentionSeconds` later by a
 * job; the row stays, with `deleted_at`.
 */
export const connectQueues = {
  checkDocument: 'sandbox-check-document',
  checkTaxIdentifiers: 'sandbox-check-tax-identifiers',
  runPayouts: 'sandbox-run-payouts',
  settlePayout: 'sandbox-settle-payout',
  deleteDocument: 'sandbox-delete-document',
} as const

export interface SandboxConnectOptions {
  /** Where received files are kept: never under the web root, never served. */
  documents: DocumentStore
  /** How long a document is kept once its check has a result (0: deleted at once). */
  documentRetentionSeconds: number
  documentCheckSeconds: number
  payoutDelaySeconds: number
  payoutArrivalSeconds: number
}

const documentKinds: IdentityDocumentKind[] = ['identity_document', 'additional_identity_document']
const sides: DocumentSide[] = ['front', 'back']
const allowedContentTypes = new Set(['application/pdf', 'image/png', 'image/jpeg'])
const maxFileBytes = 10_000_000

type PayoutRow = Selectable<SandboxPayoutsTable>

export class SandboxConnect {
  readonly #kernel: SandboxKernel
  readonly #options: SandboxConnectOptions

  constructor(kernel: SandboxKernel, options: SandboxConnectOptions) {
    this.#kernel = kernel
    this.#options = options
  }

  async createQueues(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.createQueue(connectQueues.checkDocument, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(connectQueues.checkTaxIdentifiers, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(connectQueues.runPayouts, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(connectQueues.settlePayout, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(connectQueues.deleteDocument, { retryLimit: 10, retryDelay: 30 })
  }

  async startWorkers(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.work<{ accountId: string; document: IdentityDocumentKind; side: DocumentSide; fileId: string }>(
      connectQueues.checkDocument,
      (data) => this.#checkDocument(data),
    )
    await jobs.work<{ accountId: string }>(connectQueues.checkTaxIdentifiers, (data) => this.#checkTaxIdentifiers(data.accountId))
    await jobs.work<{ accountId: string }>(connectQueues.runPayouts, (data) => this.#runPayouts(data.accountId))
    await jobs.work<{ payoutId: string }>(connectQueues.settlePayout, (data) => this.#settlePayout(data.payoutId))
    await jobs.work<{ fileId: string }>(connectQueues.deleteDocument, (data) => this.#deleteDocument(data.fileId))
  }

  async uploadIdentityDocument(input: UploadIdentityDocumentInput): Promise<{ fileId: string }> {
    // The provider enforces its own limits too (Stripe: 10 MB, pdf/png/jpeg for identity_document).
    if (!allowedContentTypes.has(input.contentType)) {
      throw new PaymentProviderError('invalid_request', `Identity documents must be pdf, png or jpeg, not ${input.contentType}`)
    }
    if (input.bytes.byteLength === 0 || input.bytes.byteLength > maxFileBytes) {
      throw new PaymentProviderError('invalid_request', 'Identity documents must be between 1 and 10,000,000 bytes')
    }
    const sha256 = createHash('sha256').update(input.bytes).digest('hex')
    const request = { ...input, bytes: undefined, sha256 }
    return this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'upload_identity_document', request, async () => {
        await lockAccount(trx, input.accountId)
        const now = this.#kernel.now()
        const fileId = newSandboxId('file')
        // Written before the row commits: a crash leaves an orphan file, never a row without its file.
        await this.#options.documents.put(fileId, input.bytes, input.contentType)
        await trx
          .insertInto('sandbox_files')
          .values({
            id: fileId,
            account_id: input.accountId,
            purpose: input.document,
            file_name: input.fileName.slice(0, 255),
            content_type: input.contentType,
            size_bytes: input.bytes.byteLength,
            sha256,
            created_at: now,
          })
          .execute()
        await trx
          .insertInto('sandbox_account_documents')
          .values({ account_id: input.accountId, document: input.document, side: input.side, file_id: fileId, status: 'pending', rejection_reason: null, updated_at: now })
          .onConflict((conflict) =>
            conflict.columns(['account_id', 'document', 'side']).doUpdateSet({ file_id: fileId, status: 'pending', rejection_reason: null, updated_at: now }),
          )
          .execute()
        await this.#kernel.jobs.send(
          connectQueues.checkDocument,
          { accountId: input.accountId, document: input.document, side: input.side, fileId },
          { db: trx, startAfter: this.#options.documentCheckSeconds },
        )
        await this.#emitAccountUpdated(trx, input.accountId)
        return { fileId }
      }),
    )
  }

  async getAccountVerification(accountId: string): Promise<AccountVerification> {
    return this.#kernel.transaction(async (trx) => this.#verification(trx, accountId))
  }

  /**
   * Like Stripe for a US individual: the identifiers given are pending until
   * checked (`documentCheckSeconds` later), and no longer due meanwhile.
   * What the check will find is decided now from the test values; the
   * digits themselves are not kept (nor in the idempotency record).
   */
  async setTaxIdentifiers(input: TaxIdentifiersInput): Promise<void> {
    if (input.ssnLast4 !== undefined && !/^\d{4}$/.test(input.ssnLast4)) throw new PaymentProviderError('invalid_request', 'ssn_last_4 must be 4 digits')
    if (input.idNumber !== undefined && !/^\d{9}$/.test(input.idNumber)) throw new PaymentProviderError('invalid_request', 'id_number must be 9 digits')
    // Not even a hash of the digits is kept: 10,000 possible last fours are quickly tried.
    const request = { accountId: input.accountId, ssnLast4: input.ssnLast4 !== undefined, idNumber: input.idNumber !== undefined }
    await this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'set_tax_identifiers', request, async () => {
        await lockAccount(trx, input.accountId)
        const account = await trx.selectFrom('sandbox_accounts').select('country').where('id', '=', input.accountId).executeTakeFirstOrThrow()
        if (account.country !== 'us') throw new PaymentProviderError('invalid_request', 'Tax identifiers are asked of US individuals only')
        await trx
          .updateTable('sandbox_accounts')
          .set({
            ...(input.ssnLast4 !== undefined ? { ssn_last_4_status: 'pending' as const, ssn_last_4_outcome: ssnLast4CheckFor(input.ssnLast4) } : {}),
            ...(input.idNumber !== undefined ? { id_number_status: 'pending' as const, id_number_outcome: idNumberCheckFor(input.idNumber) } : {}),
          })
          .where('id', '=', input.accountId)
          .execute()
        await this.#kernel.jobs.send(connectQueues.checkTaxIdentifiers, { accountId: input.accountId }, { db: trx, startAfter: this.#options.documentCheckSeconds })
        await this.#emitAccountUpdated(trx, input.accountId)
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
        await this.#replaceBankAccount(trx, input.accountId, { country: input.country, currency: input.currency, last4: input.last4, payoutFailureCode: failure })
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
        await lockAccount(trx, input.accountId)
        const account = await trx.selectFrom('sandbox_accounts').select('country').where('id', '=', input.accountId).executeTakeFirstOrThrow()
        if (account.country !== 'us') {
          throw new PaymentProviderError('invalid_request', 'A bank-account token from Plaid is a US account: the account is not in the US', { param: 'external_account' })
        }
        const now = this.#kernel.now()
        const spent = await trx
          .insertInto('sandbox_spent_bank_tokens')
          .values({ token_sha256: tokenSha256, account_id: input.accountId, spent_at: now })
          .onConflict((conflict) => conflict.column('token_sha256').doNothing())
          .returning('token_sha256')
          .executeTakeFirst()
        if (!spent) throw new PaymentProviderError('invalid_request', 'You cannot use a Stripe token more than once', { param: 'external_account' })
        await this.#replaceBankAccount(trx, input.accountId, { country: 'us', currency: 'usd', last4, payoutFailureCode: payoutFailureFor(last4) })
        return { last4 }
      }),
    )
  }

  /** What the sandbox owes the account: transfers in, minus payouts that did not fail. */
  async getBalance(accountId: string): Promise<Balance> {
    const { db } = this.#kernel
    const account = await db.selectFrom('sandbox_accounts').select('id').where('id', '=', accountId).executeTakeFirst()
    if (!account) throw new PaymentProviderError('not_found', `No such account: ${accountId}`)
    const rows = await this.#kernel.transaction(async (trx) => this.#balances(trx, accountId))
    return {
      available: rows.filter((row) => row.available > 0).map((row) => ({ currency: row.currency, amount: row.available })),
      pending: rows.filter((row) => row.inTransit > 0).map((row) => ({ currency: row.currency, amount: row.inTransit })),
    }
  }

  async listPayouts(accountId: string): Promise<Payout[]> {
    const rows = await this.#kernel.db
      .selectFrom('sandbox_payouts')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    return rows.map(toPayout)
  }

  /** Marks the identity document verified from a verified Identity session (what the Stripe adapter does by copying the session's file). */
  async attachVerifiedSession(input: { accountId: string; sessionId: string; idempotencyKey: string }): Promise<void> {
    await this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'attach_verified_session', input, async () => {
        await lockAccount(trx, input.accountId)
        const session = await trx
          .selectFrom('sandbox_verification_sessions')
          .select(['id', 'status'])
          .where('id', '=', input.sessionId)
          .executeTakeFirst()
        if (!session) throw new PaymentProviderError('not_found', `No such verification session: ${input.sessionId}`)
        if (session.status !== 'verified') throw new PaymentProviderError('invalid_state', 'The verification session is not verified')
        const now = this.#kernel.now()
        const fileId = newSandboxId('file')
        await trx
          .insertInto('sandbox_files')
          .values({ id: fileId, account_id: input.accountId, purpose: 'identity_document', file_name: `${session.id}.session`, content_type: 'application/pdf', size_bytes: 0, sha256: '', created_at: now })
          .execute()
        await trx
          .insertInto('sandbox_account_documents')
          .values({ account_id: input.accountId, document: 'identity_document', side: 'front', file_id: fileId, status: 'verified', rejection_reason: null, updated_at: now })
          .onConflict((conflict) =>
            conflict.columns(['account_id', 'document', 'side']).doUpdateSet({ file_id: fileId, status: 'verified', rejection_reason: null, updated_at: now }),
          )
          .execute()
        await this.#emitAccountUpdated(trx, input.accountId)
        await this.schedulePayoutRun(trx, input.accountId)
        return null
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
      await trx.insertInto('sandbox_account_sessions').values({ id, account_id: accountId, client_secret: clientSecret, expires_at: expiresAt }).execute()
      return { clientSecret }
    })
  }

  /**
   * Kept as given, replacing the last; what is still missing is due, as
   * Stripe asks it (see #verification). Completing it can enable payouts,
   * so a run is scheduled, as after a verified document.
   */
  async updateAccountProfile(input: { accountId: string; profile: AccountProfile; idempotencyKey: string }): Promise<void> {
    if (input.profile.tosAcceptance && !input.profile.tosAcceptance.ip) throw new PaymentProviderError('invalid_request', 'tos_acceptance.ip is required with its date', { param: 'tos_acceptance[ip]' })
    await this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'update_account_profile', input, async () => {
        await lockAccount(trx, input.accountId)
        await trx.updateTable('sandbox_accounts').set({ profile: JSON.stringify(input.profile) }).where('id', '=', input.accountId).execute()
        await this.#emitAccountUpdated(trx, input.accountId)
        await this.schedulePayoutRun(trx, input.accountId)
        return null
      }),
    )
  }

  /** Pactum's screens collect everything the sandbox asks for (it is never `provider_onboarding`): there is no page of its own to send anyone to. */
  async createOnboardingLink(input: { accountId: string }): Promise<{ url: string }> {
    await this.getAccountVerification(input.accountId)
    throw new PaymentProviderError('invalid_state', 'Nothing is due that Pactum does not collect itself')
  }

  /** A payout run for the account falls due after the schedule's delay (one queued run per account). */
  async schedulePayoutRun(trx: SandboxDb, accountId: string): Promise<void> {
    await this.#kernel.jobs.send(
      connectQueues.runPayouts,
      { accountId },
      { db: trx, startAfter: this.#options.payoutDelaySeconds, singletonKey: `payouts:${accountId}` },
    )
  }

  async #verification(trx: SandboxDb, accountId: string): Promise<AccountVerification> {
    const account = await trx
      .selectFrom('sandbox_accounts')
      .select(['id', 'country', 'additional_document_required', 'ssn_last_4_status', 'id_number_status', 'profile'])
      .where('id', '=', accountId)
      .executeTakeFirst()
    if (!account) throw new PaymentProviderError('not_found', `No such account: ${accountId}`)
    const rows = await trx
      .selectFrom('sandbox_account_documents')
      .select(['document', 'side', 'status', 'rejection_reason'])
      .where('account_id', '=', accountId)
      .execute()
    const documents = Object.fromEntries(
      documentKinds.map((kind) => [
        kind,
        Object.fromEntries(
          sides.map((side): [DocumentSide, AccountDocumentSide] => {
            const row = rows.find((candidate) => candidate.document === kind && candidate.side === side)
            return [side, row ? { status: row.status, rejectionReason: row.rejection_reason } : { status: 'not_uploaded', rejectionReason: null }]
          }),
        ),
      ]),
    ) as AccountVerification['documents']
    const externalAccount = await trx.selectFrom('sandbox_external_accounts').select('id').where('account_id', '=', accountId).executeTakeFirst()
    const currentlyDue: AccountVerification['currentlyDue'] = profileRequirements(account.profile as StoredProfile | null)
    // Like Stripe's `pending_verification`: a document being checked is no longer due.
    const identityFront = documents.identity_document.front.status
    if (identityFront === 'not_uploaded' || identityFront === 'rejected') currentlyDue.push('identity_document')
    const additionalFront = documents.additional_identity_document.front.status
    if (account.additional_document_required && additionalFront !== 'pending' && additionalFront !== 'verified') {
      currentlyDue.push('additional_identity_document')
    }
    // A US individual: the SSN's last four, and the full number when those could not be matched.
    if (account.country === 'us' && account.ssn_last_4_status === 'not_provided') currentlyDue.push('ssn_last_4')
    if (account.ssn_last_4_status === 'unmatched' && account.id_number_status !== 'pending' && account.id_number_status !== 'verified') currentlyDue.push('id_number')
    if (!externalAccount) currentlyDue.push('external_account')
    const taxIdentified = account.country !== 'us' || account.ssn_last_4_status === 'verified' || account.id_number_status === 'verified'
    const payoutsEnabled = currentlyDue.length === 0 && identityFront === 'verified' && taxIdentified
    return { documents, currentlyDue, payoutsEnabled }
  }

  async #checkDocument(data: { accountId: string; document: IdentityDocumentKind; side: DocumentSide; fileId: string }): Promise<void> {
    // Read outside the transaction: the account stays unlocked while the bytes come from storage.
    if (await this.#isAwaitingCheck(this.#kernel.db, data)) await this.#readBackDocument(data.fileId)
    await this.#kernel.transaction(async (trx) => {
      await lockAccount(trx, data.accountId)
      if (!(await this.#isAwaitingCheck(trx, data))) {
        // A newer upload replaced this file before its check: it is no longer needed (a retried check finds it scheduled already).
        await this.#scheduleDocumentDeletion(trx, data.fileId)
        return
      }
      const file = await trx.selectFrom('sandbox_files').select('file_name').where('id', '=', data.fileId).executeTakeFirstOrThrow()
      const check = documentCheckFor(file.file_name)
      await trx
        .updateTable('sandbox_account_documents')
        .set({ status: check.outcome, rejection_reason: check.outcome === 'rejected' ? check.reason : null, updated_at: this.#kernel.now() })
        .where('account_id', '=', data.accountId)
        .where('document', '=', data.document)
        .where('side', '=', data.side)
        .execute()
      if (check.outcome === 'verified' && check.asksForAddressProof && data.document === 'identity_document') {
        await trx.updateTable('sandbox_accounts').set({ additional_document_required: true }).where('id', '=', data.accountId).execute()
      }
      await this.#emitAccountUpdated(trx, data.accountId)
      if (check.outcome === 'verified') await this.schedulePayoutRun(trx, data.accountId)
      await this.#scheduleDocumentDeletion(trx, data.fileId)
    })
  }

  /** The slot still holds this file and waits for its check (not replaced, not checked already). */
  async #isAwaitingCheck(db: Kysely<Database>, data: { accountId: string; document: IdentityDocumentKind; side: DocumentSide; fileId: string }): Promise<boolean> {
    const slot = await db
      .selectFrom('sandbox_account_documents')
      .select(['file_id', 'status'])
      .where('account_id', '=', data.accountId)
      .where('document', '=', data.document)
      .where('side', '=', data.side)
      .executeTakeFirst()
    return slot !== undefined && slot.file_id === data.fileId && slot.status === 'pending'
  }

  /**
   * Streams the document back from storage, as the provider reads what it
   * checks, and refuses bytes other than those received: the job fails and
   * is retried (storage unreachable), rather than a check passing on a
   * document nobody read.
   */
  async #readBackDocument(fileId: string): Promise<void> {
    const file = await this.#kernel.db.selectFrom('sandbox_files').select(['sha256', 'size_bytes']).where('id', '=', fileId).executeTakeFirstOrThrow()
    const hash = createHash('sha256')
    let size = 0
    for await (const chunk of await this.#options.documents.get(fileId)) {
      const bytes = chunk as Buffer
      size += bytes.byteLength
      hash.update(bytes)
    }
    if (size !== file.size_bytes || hash.digest('hex') !== file.sha256) {
      throw new Error(`Sandbox file ${fileId} in storage is not the document received (${size} bytes)`)
    }
  }

  /**
   * Deletion `documentRetentionSeconds` from now, enqueued with the result
   * that makes the document unneeded. A retried check may enqueue a second
   * one: deleting is idempotent.
   */
  async #scheduleDocumentDeletion(trx: SandboxDb, fileId: string): Promise<void> {
    await this.#kernel.jobs.send(connectQueues.deleteDocument, { fileId }, { db: trx, startAfter: this.#options.documentRetentionSeconds })
  }

  /** Removes the bytes, then records it; both steps are safe to repeat. */
  async #deleteDocument(fileId: string): Promise<void> {
    await this.#options.documents.delete(fileId)
    await this.#kernel.db.updateTable('sandbox_files').set({ deleted_at: this.#kernel.now() }).where('id', '=', fileId).where('deleted_at', 'is', null).execute()
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
      await this.#emitAccountUpdated(trx, accountId)
      await this.schedulePayoutRun(trx, accountId)
    })
  }

  async #runPayouts(accountId: string): Promise<void> {
    await this.#kernel.transaction(async (trx) => {
      await lockAccount(trx, accountId)
      const verification = await this.#verification(trx, accountId)
      // Stripe holds the balance while requirements are due; a later change schedules another run.
      if (!verification.payoutsEnabled) return
      const bank = await trx
        .selectFrom('sandbox_external_accounts')
        .select(['last4'])
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
      const now = this.#kernel.now()
      const arrival = new Date(now.getTime() + this.#options.payoutArrivalSeconds * 1000)
      for (const balance of await this.#balances(trx, accountId)) {
        if (balance.available <= 0) continue
        const payout = await trx
          .insertInto('sandbox_payouts')
          .values({
            id: newSandboxId('po'),
            account_id: accountId,
            amount: balance.available,
            currency: balance.currency,
            status: 'in_transit',
            bank_last4: bank.last4,
            arrival_date: arrival,
            failure_code: null,
            failure_message: null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await this.#kernel.emit(trx, 'payout.created', payoutObject(payout))
        await this.#kernel.jobs.send(connectQueues.settlePayout, { payoutId: payout.id }, { db: trx, startAfter: arrival })
      }
    })
  }

  async #settlePayout(payoutId: string): Promise<void> {
    await this.#kernel.transaction(async (trx) => {
      const payout = await trx.selectFrom('sandbox_payouts').selectAll().where('id', '=', payoutId).forUpdate().executeTakeFirst()
      if (!payout || payout.status !== 'in_transit') return
      const bank = await trx
        .selectFrom('sandbox_external_accounts')
        .select(['last4', 'payout_failure_code'])
        .where('account_id', '=', payout.account_id)
        .executeTakeFirst()
      const failure = bank?.payout_failure_code ? (payoutFailureMessages[bank.payout_failure_code] ?? 'The bank refused the payout.') : null
      const settled = await trx
        .updateTable('sandbox_payouts')
        .set({
          status: failure ? 'failed' : 'paid',
          failure_code: failure ? (bank?.payout_failure_code ?? null) : null,
          failure_message: failure,
          updated_at: this.#kernel.now(),
        })
        .where('id', '=', payoutId)
        .returningAll()
        .executeTakeFirstOrThrow()
      await this.#kernel.emit(trx, failure ? 'payout.failed' : 'payout.paid', payoutObject(settled))
    })
  }

  /** Per currency: available (transfers in − payouts not failed) and in transit. */
  async #balances(trx: SandboxDb, accountId: string): Promise<Array<{ currency: string; available: number; inTransit: number }>> {
    const transfers = await trx
      .selectFrom('sandbox_transfers')
      .select((eb) => ['currency', eb.fn.sum<number | string>('amount').as('amount')])
      .where('destination_account', '=', accountId)
      .groupBy('currency')
      .execute()
    const payouts = await trx
      .selectFrom('sandbox_payouts')
      .select((eb) => ['currency', 'status', eb.fn.sum<number | string>('amount').as('amount')])
      .where('account_id', '=', accountId)
      .where('status', '!=', 'failed')
      .groupBy(['currency', 'status'])
      .execute()
    const currencies = [...new Set([...transfers, ...payouts].map((row) => row.currency))].sort()
    return currencies.map((currency) => {
      const credited = Number(transfers.find((row) => row.currency === currency)?.amount ?? 0)
      const paidOut = payouts.filter((row) => row.currency === currency).reduce((sum, row) => sum + Number(row.amount), 0)
      const inTransit = payouts.filter((row) => row.currency === currency && row.status === 'in_transit').reduce((sum, row) => sum + Number(row.amount), 0)
      return { currency, available: credited - paidOut, inTransit }
    })
  }

  /** The account's one payout bank account, replaced (as Stripe's `default_for_currency` with the older ones removed); payouts may now run. */
  async #replaceBankAccount(trx: SandboxDb, accountId: string, bank: { country: string; currency: string; last4: string; payoutFailureCode: string | null }): Promise<void> {
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
    await this.#emitAccountUpdated(trx, accountId)
    await this.schedulePayoutRun(trx, accountId)
  }

  async #emitAccountUpdated(trx: SandboxDb, accountId: string): Promise<void> {
    const verification = await this.#verification(trx, accountId)
    await this.#kernel.emit(trx, 'account.updated', {
      id: accountId,
      object: 'account',
      payouts_enabled: verification.payoutsEnabled,
      requirements: { currently_due: verification.currentlyDue },
    })
  }
}

/** An AccountProfile as JSON: its dates are strings. */
type StoredProfile = Omit<AccountProfile, 'tosAcceptance'> & { tosAcceptance: { date: string; ip: string } | null }

/** What Stripe asks of every individual before payouts: the name, birth date, home address and the terms' acceptance. */
function profileRequirements(profile: StoredProfile | null): AccountVerification['currentlyDue'] {
  const due: AccountVerification['currentlyDue'] = []
  if (!profile?.firstName.trim() || !profile.lastName.trim()) due.push('name')
  if (!profile?.dob) due.push('dob')
  if (!profile?.address?.line1 || !profile.address.city) due.push('address')
  if (!profile?.tosAcceptance?.ip) due.push('tos_acceptance')
  return due
}

async function lockAccount(trx: SandboxDb, accountId: string): Promise<void> {
  const account = await trx.selectFrom('sandbox_accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst()
  if (!account) throw new PaymentProviderError('not_found', `No such account: ${accountId}`)
}

function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    bankLast4: row.bank_last4,
    created: row.created_at,
    arrivalDate: row.arrival_date,
    failureMessage: row.failure_message,
  }
}

function payoutObject(row: PayoutRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'payout',
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    arrival_date: Math.floor(row.arrival_date.getTime() / 1000),
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    destination: `ba_****${row.bank_last4}`,
  }
}
