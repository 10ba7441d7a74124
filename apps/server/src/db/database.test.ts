import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Kysely, sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import { type Database, openDatabase } from './database.ts'
import { migrateToLatest, migrateUpTo } from './migrations.ts'
import * as verifyCodes from './migrations/0062-transaction-verify-codes.ts'
import { isVerifyCode } from '@pactum/domain/verify-code'

let database: Database | undefined
afterEach(async () => {
  await database?.close()
  database = undefined
})

describe('database', () => {
  it('is migrated and answers queries', async () => {
    database = await createTestDatabase()
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public' order by table_name
    `.execute(database.db)
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining(['accounts', 'oidc_payloads', 'server_secrets', 'users']),
    )
  })

  it('returns int8 as a number on both engines', async () => {
    database = await createTestDatabase()
    const result = await sql<{ value: number }>`select 9007199254740991::int8 as value`.execute(database.db)
    expect(result.rows[0]?.value).toBe(9007199254740991)
  })

  it('refuses an int8 that a number cannot hold exactly', async () => {
    database = await createTestDatabase()
    await expect(sql`select 9007199254740993::int8 as value`.execute(database.db)).rejects.toThrow(/safe integer/)
  })

  it('keys users by issuer and subject', async () => {
    database = await createTestDatabase()
    const user = { issuer: 'https://id.example', subject: 's1', email: 'a@example.com' }
    await database.db.insertInto('users').values(user).execute()
    await expect(database.db.insertInto('users').values(user).execute()).rejects.toThrow()
    await database.db
      .insertInto('users')
      .values({ ...user, issuer: 'https://other.example' })
      .execute()
  })
})

describe('the embedded database', () => {
  it('keeps its data over a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-restart-'))
    try {
      const first = await openDatabase({ databaseUrl: undefined, dataDir })
      await migrateToLatest(first.db)
      await first.db.insertInto('users').values({ issuer: 'i', subject: 's', email: 'kept@example.com' }).execute()
      await first.close()

      const second = await openDatabase({ databaseUrl: undefined, dataDir })
      expect(await migrateToLatest(second.db)).toEqual([])
      const rows = await second.db.selectFrom('users').select('email').execute()
      await second.close()
      expect(rows).toEqual([{ email: 'kept@example.com' }])
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('migration 0021', () => {
  it('turns the stored text schedule version into the integer 1', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-calc-version-'))
    try {
      database = await openDatabase({ databaseUrl: undefined, dataDir })
      const { db } = database
      await migrateUpTo(db, '0020-idempotency-claims')
      const user = await db
        .insertInto('users')
        .values({ issuer: 'i', subject: 's', email: 'sam@example.com' })
        .returning('id')
        .executeTakeFirstOrThrow()
      await sql`
        insert into transactions (id, type, status, creator_id, creator_role, price, charge, charge_calculator_version, currency, description, created,
                                  total_price, remainder_charge, remainder_charge_calculator_version)
        values ('019a0000-0000-7000-8000-000000000001', 'f2f', 'priced', ${user.id}, 'seller', 5000, 190, '2026-11-1', 'eur', 'A lamp', now(),
                20000, 490, '2026-11-1')
      `.execute(db)
      await migrateUpTo(db, '0021-integer-charge-calculator-version')
      const row = await db
        .selectFrom('transactions')
        .select(['charge_calculator_version', 'remainder_charge_calculator_version'])
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ charge_calculator_version: 1, remainder_charge_calculator_version: 1 })
    } finally {
      await database?.close()
      database = undefined
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('migration 0062', () => {
  // Run on the engine at hand: PGlite, and PostgreSQL under `npm run test:db`.
  it('gives every existing transaction its own verification code, and new rows one by default', async () => {
    database = await createTestDatabase()
    const { db } = database
    // The migration's own steps on the engine at hand, as Kysely's migrator gives them an untyped handle.
    const untyped = db as unknown as Kysely<unknown>
    await verifyCodes.down(untyped)
    const user = await db
      .insertInto('users')
      .values({ issuer: 'i', subject: 's', email: 'sam@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const insert = (n: number) => sql`
      insert into transactions (id, type, status, creator_id, creator_role, price, charge, charge_calculator_version, currency, description, created)
      values (${`019a0000-0000-7000-8000-00000000000${n}`}, 'online', 'created', ${user.id}, 'seller', 5000, 190, 1, 'eur', 'A lamp', now())
    `
    for (const n of [1, 2, 3]) await insert(n).execute(db)
    await verifyCodes.up(untyped)
    await insert(4).execute(db)
    const codes = (await db.selectFrom('transactions').select('verify_code').execute()).map((row) => row.verify_code)
    expect(codes).toHaveLength(4)
    for (const code of codes) expect(isVerifyCode(code), code).toBe(true)
    expect(new Set(codes).size).toBe(4)
    await expect(sql`update transactions set verify_code = ${codes[0]} where verify_code = ${codes[1]}`.execute(db)).rejects.toThrow(
      /transactions_verify_code_key/,
    )
  })
})
