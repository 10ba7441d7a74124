import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import type { Database } from './database.ts'
import { statementTemplate } from './statement-template.ts'

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())
beforeEach(async () => {
  await database.db.deleteFrom('users').execute()
})

interface NewUser {
  issuer: string
  subject: string
  email: string
  locale?: string | null | undefined
}

/** An insert of a user, counting how often it is built. */
function userInsert() {
  let builds = 0
  const statement = statementTemplate((db, values: { user: NewUser }) => {
    builds += 1
    return db.insertInto('users').values(values.user).returning(['subject', 'email', 'locale'])
  })
  return { statement, builds: () => builds }
}

const user = (subject: string, extra: Partial<NewUser> = {}): NewUser => ({
  issuer: 'https://id.example',
  subject,
  email: `${subject}@example.com`,
  ...extra,
})

describe('statementTemplate', () => {
  it('builds a statement once and sends each call its own values', async () => {
    const { statement, builds } = userInsert()
    const { db } = database

    const first = await db.executeQuery(statement(db, { user: user('ann') }))
    const second = await db.executeQuery(statement(db, { user: user('bob') }))

    expect(first.rows).toEqual([{ subject: 'ann', email: 'ann@example.com', locale: null }])
    expect(second.rows).toEqual([{ subject: 'bob', email: 'bob@example.com', locale: null }])
    expect(builds()).toBe(1)
    expect(statement(db, { user: user('cy') }).parameters).toEqual(['https://id.example', 'cy', 'cy@example.com'])
  })

  it('builds again for another shape: a value left undefined is left out, as Kysely leaves it out of an insert', async () => {
    const { statement, builds } = userInsert()
    const { db } = database

    const named = statement(db, { user: user('ann', { locale: 'de' }) })
    const unnamed = statement(db, { user: user('bob', { locale: undefined }) })

    expect(builds()).toBe(2)
    expect(named.sql).toMatch(/^insert into "users" \("issuer", "subject", "email", "locale"\) values/)
    expect(unnamed.sql).toMatch(/^insert into "users" \("issuer", "subject", "email"\) values/)
    await db.executeQuery(named)
    await db.executeQuery(unnamed)
    const stored = await db.selectFrom('users').select(['subject', 'locale']).orderBy('subject').execute()
    expect(stored).toEqual([
      { subject: 'ann', locale: 'de' },
      { subject: 'bob', locale: null },
    ])
  })

  it('keeps a null a value of the same shape, not a different statement', () => {
    const { statement, builds } = userInsert()
    const { db } = database

    statement(db, { user: user('ann', { locale: 'de' }) })
    const withNull = statement(db, { user: user('bob', { locale: null }) })

    expect(builds()).toBe(1)
    expect(withNull.parameters).toContain(null)
  })

  it('is sent through the instance of each call, a transaction included', async () => {
    const { statement } = userInsert()
    const { db } = database

    await db.executeQuery(statement(db, { user: user('ann') }))
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(statement(trx, { user: user('bob') }))
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')

    expect(await db.selectFrom('users').select('subject').execute()).toEqual([{ subject: 'ann' }])
  })

  it('hands the builder stand-ins, not the values', () => {
    const seen: unknown[] = []
    const statement = statementTemplate((db, values: { batch: { ids: string[] } }) => {
      seen.push(values.batch.ids)
      return db
        .selectFrom('users')
        .select('id')
        .where('id', '=', sql<string>`any(${values.batch.ids}::uuid[])`)
    })

    const compiled = statement(database.db, { batch: { ids: ['a', 'b'] } })

    expect(seen).toHaveLength(1)
    expect(seen[0]).not.toEqual(['a', 'b'])
    expect(compiled.parameters).toEqual([['a', 'b']])
  })

  it('still answers past its limit of shapes, building each time', async () => {
    let builds = 0
    const statement = statementTemplate((db, values: { filter: Record<string, string | undefined> }) => {
      builds += 1
      let query = db.selectFrom('users').select('subject')
      for (const [column, value] of Object.entries(values.filter)) {
        if (value !== undefined) query = query.where(column as 'subject', '=', value)
      }
      return query
    })
    await database.db.insertInto('users').values(user('ann')).execute()

    const columns = Array.from({ length: 25 }, (_, index) => `c${index}`)
    for (const column of columns) statement(database.db, { filter: { [column]: 'x' } })
    const before = builds
    const found = await database.db.executeQuery(statement(database.db, { filter: { subject: 'ann' } }))
    statement(database.db, { filter: { subject: 'ann' } })

    expect(found.rows).toEqual([{ subject: 'ann' }])
    expect(builds - before).toBe(2)
  })
})
