import { type Kysely, sql } from 'kysely'
import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider'
import type { Database } from '../../../db/schema.ts'

/**
 * oidc-provider's storage (sessions, interactions, grants, codes, refresh
 * tokens…) in the `oidc_payloads` table, so that a restart signs nobody out
 * and several processes on one database share it. Expired rows count as
 * absent; now and then a write also deletes rows long expired.
 */
export function createPayloadAdapter(db: Kysely<Database>, options: { cleanupProbability?: number } = {}): AdapterConstructor {
  const cleanupProbability = options.cleanupProbability ?? 0.01

  const live = () =>
    db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at'])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))

  function toPayload(row: { payload: Record<string, unknown>; consumed_at: Date | null } | undefined) {
    if (!row) return undefined
    const payload = row.payload as AdapterPayload
    // oidc-provider reads `consumed` (epoch seconds) to refuse a code or refresh token used twice.
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload
  }

  function cleanUpNowAndThen() {
    if (Math.random() >= cleanupProbability) return
    // Kept an hour past expiry: cheap insurance against clock skew between processes.
    db.deleteFrom('oidc_payloads')
      .where('expires_at', '<', sql<Date>`now() - interval '1 hour'`)
      .execute()
      .catch(() => {
        // Only housekeeping: the next write tries again.
      })
  }

  return class PayloadAdapter implements Adapter {
    readonly model: string

    constructor(model: string) {
      this.model = model
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const values = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      }
      await db
        .insertInto('oidc_payloads')
        .values({ model: this.model, id, ...values })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(values))
        .execute()
      cleanUpNowAndThen()
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return toPayload(await live().where('model', '=', this.model).where('id', '=', id).executeTakeFirst())
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return toPayload(await live().where('model', '=', this.model).where('user_code', '=', userCode).executeTakeFirst())
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return toPayload(await live().where('model', '=', this.model).where('uid', '=', uid).executeTakeFirst())
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: sql<Date>`now()` })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute()
    }

    async destroy(id: string): Promise<void> {
      await deletePayload(db, this.model, id)
    }

    /** Every artefact of a grant goes at once (logout, refresh token reuse, revocation). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute()
    }
  }
}

/** A stored payload as account-sessions.ts reads it: which artefact, of which grant. */
export interface AccountPayloadRow {
  model: string
  id: string
  grant_id: string | null
  payload: Record<string, unknown>
}

/** The account's stored artefacts of these models, expired or not. */
export async function findPayloadsOfAccount(db: Kysely<Database>, accountId: string, models: string[]): Promise<AccountPayloadRow[]> {
  return (await db
    .selectFrom('oidc_payloads')
    .select(['model', 'id', 'grant_id', 'payload'])
    .where(sql<string>`payload->>'accountId'`, '=', accountId)
    .where('model', 'in', models)
    .execute()) as AccountPayloadRow[]
}

/** The account's unexpired artefacts of these models. */
export async function findLivePayloadsOfAccount(db: Kysely<Database>, accountId: string, models: string[]): Promise<AccountPayloadRow[]> {
  return (await db
    .selectFrom('oidc_payloads')
    .select(['model', 'id', 'grant_id', 'payload'])
    .where(sql<string>`payload->>'accountId'`, '=', accountId)
    .where('model', 'in', models)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .execute()) as AccountPayloadRow[]
}

/** Every artefact of these grants, whatever its own payload says. */
export async function deletePayloadsOfGrants(db: Kysely<Database>, grantIds: string[]): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('grant_id', 'in', grantIds).execute()
}

export async function deletePayload(db: Kysely<Database>, model: string, id: string): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('model', '=', model).where('id', '=', id).execute()
}
