import type { Kysely } from 'kysely'
import type { Database as TestDatabase } from '../db/database.ts'
import type { Database } from '../db/schema.ts'
import { createTestDatabase } from './test-database.ts'

/** Users straight into the table (no sign-in), for tests of the repository's SQL: their ids by subject. */
export async function insertUsers<Subject extends string>(
  db: Kysely<Database>,
  subjects: readonly Subject[],
): Promise<Record<Subject, string>> {
  const users = await db
    .insertInto('users')
    .values(subjects.map((subject) => ({ issuer: 'https://id.example', subject, email: `${subject}@example.com` })))
    .returning(['id', 'subject'])
    .execute()
  return Object.fromEntries(users.map((user) => [user.subject, user.id])) as Record<Subject, string>
}

/** A fresh test database holding two users, `me` and `other`: the start of the list's SQL tests. */
export async function databaseWithMeAndOther(): Promise<{ database: TestDatabase; me: string; other: string }> {
  const database = await createTestDatabase()
  const { me, other } = await insertUsers(database.db, ['me', 'other'])
  return { database, me, other }
}
