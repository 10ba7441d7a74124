import { randomBytes } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { SandboxVerificationSessionsTable } from '../../db/schema.ts'
import type { IdentityVerification, RelatedPerson, VerificationSession } from './identity-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import { personOfSandboxAccount } from './sandbox-account-state.ts'
import type { SandboxDocuments } from './sandbox-documents.ts'
import { newSandboxId, type SandboxDb, type SandboxKernel, secretMatches } from './sandbox-kernel.ts'

/**
 * The sandbox's Stripe Identity: a verification session starts in
 * `requires_input`; on its hosted page (sandbox-identity-routes.ts) the
 * tester submits a document that will pass or fail; the session is then
 * `processing` until the check finishes `checkSeconds` later, and ends
 * `verified`, or back in `requires_input` with the reason. Every change is
 * announced by an `identity.verification_session.*` webhook. A session made
 * for a connected account's Person (Stripe's `related_person`) verifies
 * that account's identity document when it is verified, as Stripe attaches
 * what Identity collected to the Person.
 */
export const identityQueues = { checkSession: 'sandbox-check-verification-session' } as const

type SessionRow = Selectable<SandboxVerificationSessionsTable>

const unverifiedReason = 'The document could not be verified. Try again with a valid, unexpired document.'

export class SandboxIdentity implements IdentityVerification {
  readonly #kernel: SandboxKernel
  readonly #documents: SandboxDocuments
  readonly #checkSeconds: number

  constructor(kernel: SandboxKernel, documents: SandboxDocuments, options: { checkSeconds: number }) {
    this.#kernel = kernel
    this.#documents = documents
    this.#checkSeconds = options.checkSeconds
  }

  async createQueues(): Promise<void> {
    await this.#kernel.jobs.createQueue(identityQueues.checkSession, { retryLimit: 10, retryDelay: 5 })
  }

  async startWorkers(): Promise<void> {
    await this.#kernel.jobs.work<{ sessionId: string }>(identityQueues.checkSession, (data) => this.#check(data.sessionId))
  }

  async createVerificationSession(input: {
    userId: string
    returnUrl: string
    idempotencyKey: string
    relatedPerson?: RelatedPerson
  }): Promise<VerificationSession> {
    const related = input.relatedPerson ?? null
    const request = { userId: input.userId, ...(related ? { relatedPerson: related } : {}) }
    const row = await this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'create_verification_session', request, async () => {
        if (related) await checkRelatedPerson(trx, related)
        const id = newSandboxId('vs')
        const now = this.#kernel.now()
        const created = await trx
          .insertInto('sandbox_verification_sessions')
          .values({
            id,
            user_id: input.userId,
            client_secret: `${id}_secret_${randomBytes(18).toString('base64url')}`,
            status: 'requires_input',
            last_error: null,
            pending_outcome: null,
            related_account_id: related?.accountId ?? null,
            related_person_id: related?.personId ?? null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await this.#kernel.emit(trx, 'identity.verification_session.created', sessionObject(created))
        return created.id
      }),
    )
    return this.retrieveVerificationSession(row, input.returnUrl)
  }

  async retrieveVerificationSession(id: string, returnUrl: string): Promise<VerificationSession> {
    const row = await this.#kernel.db.selectFrom('sandbox_verification_sessions').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new PaymentProviderError('not_found', `No such verification session: ${id}`)
    return toSession(row, returnUrl)
  }

  /** For the hosted page: the session, if the client secret is its own. */
  async retrieveForClient(id: string, clientSecret: string): Promise<SessionRow> {
    const row = await this.#kernel.db.selectFrom('sandbox_verification_sessions').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row || !secretMatches(row.client_secret, clientSecret)) {
      throw new PaymentProviderError('not_found', `No such verification session: ${id}`)
    }
    return row
  }

  /** The hosted page's submission: the check starts and finishes later. */
  async submit(id: string, clientSecret: string, outcome: 'verified' | 'unverified'): Promise<void> {
    await this.retrieveForClient(id, clientSecret)
    await this.#kernel.transaction(async (trx) => {
      const row = await trx
        .selectFrom('sandbox_verification_sessions')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirstOrThrow()
      if (row.status !== 'requires_input') throw new PaymentProviderError('invalid_state', `The session is ${row.status}`)
      const processing = await trx
        .updateTable('sandbox_verification_sessions')
        .set({ status: 'processing', pending_outcome: outcome, last_error: null, updated_at: this.#kernel.now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await this.#kernel.emit(trx, 'identity.verification_session.processing', sessionObject(processing))
      await this.#kernel.jobs.send(identityQueues.checkSession, { sessionId: id }, { db: trx, startAfter: this.#checkSeconds })
    })
  }

  async #check(sessionId: string): Promise<void> {
    await this.#kernel.transaction(async (trx) => {
      const row = await trx
        .selectFrom('sandbox_verification_sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .forUpdate()
        .executeTakeFirst()
      if (!row || row.status !== 'processing') return
      const verified = row.pending_outcome === 'verified'
      const settled = await trx
        .updateTable('sandbox_verification_sessions')
        .set({
          status: verified ? 'verified' : 'requires_input',
          last_error: verified ? null : unverifiedReason,
          pending_outcome: null,
          updated_at: this.#kernel.now(),
        })
        .where('id', '=', sessionId)
        .returningAll()
        .executeTakeFirstOrThrow()
      if (verified && settled.related_account_id) await this.#documents.recordIdentityVerified(trx, settled.related_account_id, settled.id)
      await this.#kernel.emit(
        trx,
        verified ? 'identity.verification_session.verified' : 'identity.verification_session.requires_input',
        sessionObject(settled),
      )
    })
  }
}

/** The hosted page for a session, returning to a same-origin path. */
export function hostedSessionUrl(row: Pick<SessionRow, 'id' | 'client_secret'>, returnUrl: string): string {
  const query = new URLSearchParams({ client_secret: row.client_secret, return_url: returnUrl })
  return `/sandbox/identity/${encodeURIComponent(row.id)}?${query.toString()}`
}

function toSession(row: SessionRow, returnUrl: string): VerificationSession {
  return {
    id: row.id,
    clientSecret: row.client_secret,
    status: row.status,
    url: hostedSessionUrl(row, returnUrl),
    lastError: row.last_error,
    relatedPerson: relatedPersonOf(row),
  }
}

function relatedPersonOf(row: SessionRow): RelatedPerson | null {
  return row.related_account_id && row.related_person_id ? { accountId: row.related_account_id, personId: row.related_person_id } : null
}

/** As Stripe checks `related_person`: the account must exist, and the person be its own. */
async function checkRelatedPerson(trx: SandboxDb, related: RelatedPerson): Promise<void> {
  const account = await trx.selectFrom('sandbox_accounts').select('id').where('id', '=', related.accountId).executeTakeFirst()
  if (!account) throw new PaymentProviderError('not_found', `No such account: ${related.accountId}`, { param: 'related_person[account]' })
  if (personOfSandboxAccount(account.id) !== related.personId) {
    throw new PaymentProviderError('invalid_request', `The person ${related.personId} is not the account ${related.accountId}'s`, {
      param: 'related_person[person]',
    })
  }
}

function sessionObject(row: SessionRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'identity.verification_session',
    status: row.status,
    last_error: row.last_error ? { code: 'document_unverified_other', reason: row.last_error } : null,
    metadata: { user_id: row.user_id },
    ...(row.related_account_id ? { related_person: { account: row.related_account_id, person: row.related_person_id } } : {}),
  }
}
