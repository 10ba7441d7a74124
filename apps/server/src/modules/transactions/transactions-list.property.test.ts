import type { TransactionFilter } from '@pactum/contracts/transactions'
import type { Party } from '@pactum/domain/transactions/kernel'
import { matchesFilter } from '@pactum/domain/transactions/list-filters'
import { statusesByKind, type TransactionKind } from '@pactum/domain/transactions/transaction'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../db/database.ts'
import { uuidV7 } from '../../ids.ts'
import { databaseWithMeAndOther } from '../../testing/test-users.ts'
import { fullPageStatement, listForUser, listSummariesForUser, summaryPageStatement } from './transactions-repository.ts'

/**
 * The list's SQL (one newest-first branch per party column, merged) against
 * the plain reading of what My transactions holds: every transaction the
 * user is buyer, seller or creator of, or with a filter the ones that match
 * it for the role the user has, newest first, paged by `after_id` without
 * losing or repeating one.
 */

let database: Database, me: string, other: string
beforeAll(async () => {
  ;({ database, me, other } = await databaseWithMeAndOther())
})
afterAll(() => database.close())

type Who = 'me' | 'other' | 'nobody'

interface Row {
  kind: TransactionKind
  status: string
  buyer: Who
  seller: Who
  creator: Who
  isPaymentInProgress: boolean
  sellerConfirmsHandover: boolean
  description: string
}

const descriptions = ['Road bike', 'Desk LAMP', 'Old chair']

const rowArbitrary: fc.Arbitrary<Row> = fc.constantFrom<TransactionKind>('online', 'f2f').chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    status: fc.constantFrom(...statusesByKind[kind]),
    buyer: fc.constantFrom<Who>('me', 'other', 'nobody'),
    seller: fc.constantFrom<Who>('me', 'other', 'nobody'),
    creator: fc.constantFrom<Who>('me', 'other', 'nobody'),
    isPaymentInProgress: fc.boolean(),
    sellerConfirmsHandover: fc.boolean(),
    description: fc.constantFrom(...descriptions),
  }),
)

const queryArbitrary = fc.record({
  limit: fc.integer({ min: 1, max: 4 }),
  filter: fc.option(fc.constantFrom<TransactionFilter>('active', 'inputRequired', 'waiting', 'completed', 'cancelled'), { nil: undefined }),
  kind: fc.option(fc.constantFrom<TransactionKind>('online', 'f2f'), { nil: undefined }),
  // Letters no hex id holds, so only descriptions can match.
  search: fc.option(fc.constantFrom('bike', 'lamp', 'zz'), { nil: undefined }),
  summaries: fc.boolean(),
})

type ListQuery = typeof queryArbitrary extends fc.Arbitrary<infer Q> ? Q : never

function expected(rows: (Row & { id: string })[], query: ListQuery): string[] {
  const holds = (row: Row, role: Party) => {
    if (row[role] !== 'me') return false
    return (
      !query.filter ||
      matchesFilter(
        {
          kind: row.kind,
          status: row.status,
          isPaymentInProgress: row.isPaymentInProgress,
          sellerConfirmsHandover: row.sellerConfirmsHandover,
        } as Parameters<typeof matchesFilter>[0],
        role,
        query.filter,
      )
    )
  }
  return rows
    .filter((row) => (query.filter ? holds(row, 'buyer') || holds(row, 'seller') : [row.buyer, row.seller, row.creator].includes('me')))
    .filter((row) => !query.kind || row.kind === query.kind)
    .filter((row) => !query.search || row.description.toLowerCase().includes(query.search))
    .map((row) => row.id)
    .sort()
    .reverse()
}

describe('listForUser and listSummariesForUser', () => {
  it('page through exactly the transactions the plain reading gives, newest first, whichever statement each page reuses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArbitrary, { maxLength: 14 }), queryArbitrary, async (rows, query) => {
        const { db } = database
        await db.deleteFrom('transactions').execute()
        const idOf = (who: Who) => (who === 'me' ? me : who === 'other' ? other : null)
        const stored = rows.map((row, index) => ({ ...row, id: uuidV7(new Date(1_900_000_000_000 + index)) }))
        if (stored.length > 0) {
          await db
            .insertInto('transactions')
            .values(
              stored.map((row) => ({
                id: row.id,
                type: row.kind,
                status: row.status,
                buyer_id: idOf(row.buyer),
                seller_id: idOf(row.seller),
                creator_id: idOf(row.creator),
                creator_role: 'seller',
                price: 1000,
                charge: 50,
                charge_calculator_version: 1,
                currency: 'eur',
                description: row.description,
                created: new Date(),
                high_value: false,
                is_payment_in_progress: row.isPaymentInProgress,
                seller_confirms_handover: row.sellerConfirmsHandover,
              })),
            )
            .execute()
        }

        const listed: string[] = []
        let afterId: string | undefined
        for (;;) {
          const { summaries, ...listQuery } = query
          const page = await (summaries ? listSummariesForUser : listForUser)(db, { userId: me, ...listQuery, afterId })
          expect(page.length).toBeLessThanOrEqual(query.limit)
          listed.push(...page.map((row) => row.id))
          if (page.length < query.limit) break
          afterId = page.at(-1)!.id
        }
        expect(listed).toEqual(expected(stored, query))
      }),
      { numRuns: 60 },
    )
  })
})

describe("a summary's created", () => {
  it('is the full view’s created as toISOString writes it, to the millisecond, whatever the microseconds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4_102_444_799_999 }),
        fc.integer({ min: 0, max: 999 }),
        async (milliseconds, microseconds) => {
          const { db } = database
          await db.deleteFrom('transactions').execute()
          const id = uuidV7(new Date(1_900_000_000_000))
          await db
            .insertInto('transactions')
            .values({
              id,
              type: 'online',
              status: 'created',
              seller_id: me,
              creator_id: me,
              creator_role: 'seller',
              price: 1000,
              charge: 50,
              charge_calculator_version: 1,
              currency: 'eur',
              description: 'Lamp',
              created: new Date(milliseconds),
              high_value: false,
            })
            .execute()
          await sql`update transactions set created = created + make_interval(secs => ${microseconds}::int / 1000000.0) where id = ${id}`.execute(
            db,
          )

          const [full] = await listForUser(db, { userId: me, limit: 1 })
          const [summary] = await listSummariesForUser(db, { userId: me, limit: 1 })
          expect(summary!.created).toBe(full!.created.toISOString())
          expect(summary!.created).toBe(new Date(milliseconds).toISOString())
        },
      ),
      { numRuns: 40 },
    )
  })
})

describe("a page's statement", () => {
  it('carries its size in its text, so that PostgreSQL can keep one generic plan for it', () => {
    for (const statement of [fullPageStatement, summaryPageStatement]) {
      const page = statement(database.db, { userId: me, limit: 50, search: 'bike' })
      // The three branches' limits (buyer, seller, creator) and the page's own.
      expect(page.sql.match(/limit 50\b/g)).toHaveLength(4)
      expect(page.parameters).not.toContain(50)
      // A filter has two branches (buyer and seller).
      expect(statement(database.db, { userId: me, limit: 50, filter: 'active' }).sql.match(/limit 50\b/g)).toHaveLength(3)
      expect(statement(database.db, { userId: me, limit: 20 }).sql).toMatch(/limit 20\b/)
      expect(statement(database.db, { userId: me, limit: 50 }).sql).not.toEqual(statement(database.db, { userId: me, limit: 20 }).sql)
    }
  })

  it('refuses a size that is not a positive integer, as it is written into the text', () => {
    for (const limit of [0, -1, 2.5, Number.NaN]) {
      expect(() => summaryPageStatement(database.db, { userId: me, limit })).toThrow(RangeError)
    }
  })
})
