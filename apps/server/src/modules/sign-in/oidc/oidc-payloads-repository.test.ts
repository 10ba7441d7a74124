import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../db/database.ts'
import { createTestDatabase } from '../../../testing/test-database.ts'
import { createPayloadAdapter } from './oidc-payloads-repository.ts'

let database: Database
beforeEach(async () => {
  database = await createTestDatabase()
})
afterEach(async () => {
  await database.close()
})

describe('payload adapter', () => {
  it('stores, finds, replaces and destroys a payload per model', async () => {
    const Adapter = createPayloadAdapter(database.db)
    const sessions = new Adapter('Session')
    const grants = new Adapter('Grant')
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a1' }, 60)
    expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: 'a1' })
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'a1' })
    expect(await grants.find('s1')).toBeUndefined()
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a2' }, 60)
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'a2' })
    await sessions.destroy('s1')
    expect(await sessions.find('s1')).toBeUndefined()
  })

  it('finds a device code by its user code', async () => {
    const codes = new (createPayloadAdapter(database.db))('DeviceCode')
    await codes.upsert('d1', { userCode: 'ABCD-EFGH' }, 60)
    expect(await codes.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' })
  })

  it('marks a payload consumed', async () => {
    const codes = new (createPayloadAdapter(database.db))('AuthorizationCode')
    await codes.upsert('c1', { grantId: 'g1' }, 60)
    expect((await codes.find('c1'))?.consumed).toBeUndefined()
    await codes.consume('c1')
    const consumed = await codes.find('c1')
    expect(consumed?.consumed).toBeTypeOf('number')
    expect(Math.abs((consumed!.consumed as number) - Date.now() / 1000)).toBeLessThan(60)
  })

  it('revokes everything of one grant across models', async () => {
    const Adapter = createPayloadAdapter(database.db)
    const refreshTokens = new Adapter('RefreshToken')
    const codes = new Adapter('AuthorizationCode')
    await refreshTokens.upsert('r1', { grantId: 'g1' }, 60)
    await codes.upsert('c1', { grantId: 'g1' }, 60)
    await refreshTokens.upsert('r2', { grantId: 'g2' }, 60)
    await refreshTokens.revokeByGrantId('g1')
    expect(await refreshTokens.find('r1')).toBeUndefined()
    expect(await codes.find('c1')).toBeUndefined()
    expect(await refreshTokens.find('r2')).toEqual({ grantId: 'g2' })
  })

  it('treats expired rows as absent and cleans them up now and then', async () => {
    const sessions = new (createPayloadAdapter(database.db, { cleanupProbability: 0 }))('Session')
    await sessions.upsert('old', { uid: 'u-old' }, 60)
    await sessions.upsert('forever', { uid: 'u-forever' })
    await database.db
      .updateTable('oidc_payloads')
      .set({ expires_at: sql<Date>`now() - interval '2 hours'` })
      .where('id', '=', 'old')
      .execute()
    expect(await sessions.find('old')).toBeUndefined()
    expect(await sessions.findByUid('u-old')).toBeUndefined()
    expect(await sessions.find('forever')).toEqual({ uid: 'u-forever' })

    const tidy = new (createPayloadAdapter(database.db, { cleanupProbability: 1 }))('Session')
    await tidy.upsert('another', { uid: 'u-another' }, 60)
    await expect
      .poll(async () => (await database.db.selectFrom('oidc_payloads').select('id').where('id', '=', 'old').execute()).length)
      .toBe(0)
  })
})
