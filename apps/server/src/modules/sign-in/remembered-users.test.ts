import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../db/database.ts'
import { createTestDatabase } from '../../testing/test-database.ts'
import { rememberUsers } from './remembered-users.ts'

describe('remembered users', () => {
  let database: Database
  beforeEach(async () => {
    database = await createTestDatabase()
  })
  afterEach(async () => {
    await database.close()
  })

  const claims = { iss: 'https://issuer.example', sub: 'anna', email: 'anna@example.com', given_name: 'Anna', family_name: 'Nowak', exp: 0 }

  it('creates the user once and answers the same claims from memory', async () => {
    const findUser = rememberUsers(database.db, { emails: [], requireMfa: true })
    const first = await findUser(claims, 'en_gb')
    // Changed behind its back: the remembered answer stands (what may be stale, for seconds).
    await database.db
      .updateTable('users')
      .set({ roles: ['admin'] })
      .where('id', '=', first.id)
      .execute()
    expect(await findUser(claims, 'en_gb')).toEqual(first)
    expect(await database.db.selectFrom('users').select('id').execute()).toHaveLength(1)
  })

  it('looks the user up again, and writes through, when the token says something new', async () => {
    const findUser = rememberUsers(database.db, { emails: ['anna.new@example.com'], requireMfa: false })
    const first = await findUser(claims, 'en_gb')
    const renamed = await findUser({ ...claims, given_name: 'Anne' }, 'en_gb')
    expect(renamed).toMatchObject({ id: first.id, firstName: 'Anne' })
    // A confirmed address only earns the ADMIN_EMAILS role (issue 30).
    const moved = await findUser({ ...claims, given_name: 'Anne', email: 'anna.new@example.com', email_verified: true }, 'pl_pl')
    expect(moved).toMatchObject({ id: first.id, email: 'anna.new@example.com', roles: ['admin'] })
    const row = await database.db
      .selectFrom('users')
      .select(['first_name', 'email', 'locale'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ first_name: 'Anne', email: 'anna.new@example.com', locale: 'pl_pl' })
  })

  it('keeps people apart: another subject is another user', async () => {
    const findUser = rememberUsers(database.db, { emails: [], requireMfa: true })
    const anna = await findUser(claims)
    const other = await findUser({ ...claims, sub: 'someone-else' })
    expect(other.id).not.toBe(anna.id)
  })
})
