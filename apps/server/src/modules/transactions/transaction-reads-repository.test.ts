import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely, KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../db/database.ts'
import type { Database as Schema } from '../../db/schema.ts'
import { uuidV7 } from '../../ids.ts'
import { databaseWithMeAndOther } from '../../testing/test-users.ts'
import { coalescedTransactionReads } from './transaction-reads-repository.ts'
import { manyAsReadStatement } from './transactions-repository.ts'

let database: Database, me: string, other: string
beforeAll(async () => {
  ;({ database, me, other } = await databaseWithMeAndOther())
})
afterAll(() => database.close())

/** The database, counting the statements sent through it (and failing the first `failing` of them). */
function countingDb(options: { failing?: number; failure?: Error } = {}): { db: Kysely<Schema>; statements: () => number } {
  let statements = 0
  // Counted as their answers come back: a statement built once is not transformed again when it is sent.
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => {
      statements += 1
      if (statements <= (options.failing ?? 0)) throw options.failure
      return result
    },
  }
  return { db: database.db.withPlugin(plugin), statements: () => statements }
}

let sequence = 0
async function insertTransaction(
  parties: { buyer?: string; seller?: string; creator?: string },
  kind: TransactionKind = 'online',
): Promise<string> {
  const id = uuidV7(new Date(1_900_000_000_000 + sequence++))
  await database.db
    .insertInto('transactions')
    .values({
      id,
      type: kind,
      status: 'created',
      buyer_id: parties.buyer ?? null,
      seller_id: parties.seller ?? null,
      creator_id: parties.creator ?? null,
      creator_role: 'seller',
      price: 1000,
      charge: 50,
      charge_calculator_version: 1,
      currency: 'eur',
      description: 'Road bike',
      created: new Date(),
      high_value: false,
    })
    .execute()
  return id
}

beforeEach(async () => {
  await database.db.deleteFrom('transaction_message_reads').execute()
  await database.db.deleteFrom('transaction_messages').execute()
  await database.db.deleteFrom('guest_invitations').execute()
  await database.db.deleteFrom('transactions').execute()
})

const notFound = { code: 'not_found' }

describe('coalescedTransactionReads', () => {
  it('sends the reads asked for together as one statement, and gives each caller only a transaction they take part in', async () => {
    const asBuyer = await insertTransaction({ buyer: me, seller: other })
    const asCreator = await insertTransaction({ creator: me })
    const othersOnly = await insertTransaction({ seller: other })
    const { db, statements } = countingDb()
    const reads = coalescedTransactionReads(db)

    const results = await Promise.allSettled([
      reads.findForParty(asBuyer, me),
      reads.findForParty(asCreator, me),
      reads.findForParty(othersOnly, other),
      reads.findForParty(othersOnly, me),
      reads.findForParty(asBuyer, other),
    ])

    expect(statements()).toBe(1)
    const ids = results.map((result) => (result.status === 'fulfilled' ? result.value.row.id : result.reason.code))
    expect(ids).toEqual([asBuyer, asCreator, othersOnly, 'not_found', asBuyer])
  })

  it('batches reads asked from separate callbacks of one turn of the event loop, as requests from sockets ready together are', async () => {
    const first = await insertTransaction({ buyer: me })
    const second = await insertTransaction({ seller: me })
    const { db, statements } = countingDb()
    const reads = coalescedTransactionReads(db)

    const asked = await new Promise<Promise<unknown>[]>((resolve) => {
      const pending: Promise<unknown>[] = []
      setImmediate(() => pending.push(reads.findForParty(first, me)))
      setImmediate(() => resolve([...pending, reads.findForParty(second, me)]))
    })
    await Promise.all(asked)

    expect(statements()).toBe(1)
  })

  it('answers 404 for a missing id, the other kind, and a malformed id (that one without asking the database)', async () => {
    const online = await insertTransaction({ buyer: me })
    const faceToFace = await insertTransaction({ seller: me }, 'f2f')
    const { db, statements } = countingDb()
    const reads = coalescedTransactionReads(db)

    await expect(reads.findForParty('not-a-uuid', me)).rejects.toMatchObject(notFound)
    expect(statements()).toBe(0)
    await expect(reads.findForParty(uuidV7(new Date()), me)).rejects.toMatchObject(notFound)
    await expect(reads.findForParty(online, me, 'f2f')).rejects.toMatchObject(notFound)
    await expect(reads.findForParty(faceToFace, me, 'online')).rejects.toMatchObject(notFound)
    await expect(reads.findForParty(faceToFace, me, 'f2f')).resolves.toMatchObject({ row: { id: faceToFace } })
    await expect(reads.findForParty(faceToFace, me)).resolves.toMatchObject({ row: { id: faceToFace } })
  })

  it('reads each transaction with its unclaimed invitation only', async () => {
    const invited = await insertTransaction({ creator: me, seller: me })
    const claimed = await insertTransaction({ creator: me, seller: me, buyer: other })
    const sentAt = new Date('2026-11-20T10:00:00Z')
    const invitation = (transactionId: string, claimedAt: Date | null) => ({
      id: uuidV7(new Date()),
      transaction_id: transactionId,
      role: 'buyer' as const,
      email: 'guest@example.com',
      language: 'en',
      secret_hash: `hash-${transactionId}`,
      claimed_by: claimedAt ? other : null,
      claimed_at: claimedAt,
      created_at: sentAt,
      sent_at: sentAt,
    })
    await database.db
      .insertInto('guest_invitations')
      .values([invitation(invited, null), invitation(claimed, new Date())])
      .execute()
    const reads = coalescedTransactionReads(database.db)

    const [first, second] = await Promise.all([reads.findForParty(invited, me), reads.findForParty(claimed, me)])

    expect(first.unclaimedInvitation).toEqual({ email: 'guest@example.com', role: 'buyer', sent_at: sentAt })
    expect(second.unclaimedInvitation).toBeNull()
  })

  it('keeps nothing between batches: a read after a change sees the change', async () => {
    const id = await insertTransaction({ buyer: me })
    const { db, statements } = countingDb()
    const reads = coalescedTransactionReads(db)

    expect((await reads.findForParty(id, me)).row.status).toBe('created')
    await database.db.updateTable('transactions').set({ status: 'cancelled' }).where('id', '=', id).execute()
    expect((await reads.findForParty(id, me)).row.status).toBe('cancelled')
    expect(statements()).toBe(2)
  })

  it('splits a crowd into statements of at most 64 ids', async () => {
    const id = await insertTransaction({ buyer: me })
    const { db, statements } = countingDb()
    const reads = coalescedTransactionReads(db)

    const found = await Promise.all(Array.from({ length: 150 }, () => reads.findForParty(id, me)))

    expect(found.every((result) => result.row.id === id)).toBe(true)
    expect(statements()).toBe(3)
  })

  it('gives each of a batch of any size its own transaction, whatever the padding repeats', async () => {
    const ids = [await insertTransaction({ buyer: me })]
    for (let index = 1; index < 9; index++) ids.push(await insertTransaction({ seller: me }))
    for (const size of [1, 2, 3, 5, 9]) {
      const reads = coalescedTransactionReads(database.db)
      const found = await Promise.all(ids.slice(0, size).map((id) => reads.findForParty(id, me)))
      expect(found.map((result) => result.row.id)).toEqual(ids.slice(0, size))
    }
  })

  it('fails every read of a batch whose statement failed, and the next batch is sent afresh', async () => {
    const id = await insertTransaction({ buyer: me })
    const failure = new Error('connection lost')
    const { db, statements } = countingDb({ failing: 1, failure })
    const reads = coalescedTransactionReads(db)

    const results = await Promise.allSettled([reads.findForParty(id, me), reads.findForParty(id, me)])
    expect(results).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ])
    await expect(reads.findForParty(id, me)).resolves.toMatchObject({ row: { id } })
    expect(statements()).toBe(2)
  })
})

describe("the batch's statement", () => {
  it('names two parameters per read, up to the next power of two: seven texts for batches of 1 to 64, each kept on one generic plan', () => {
    const asked = Array.from({ length: 64 }, (_, index) => ({ id: uuidV7(new Date(1_900_000_000_000 + index)), viewerId: me }))
    const parameterCounts = [1, 2, 3, 5, 64].map((size) => manyAsReadStatement(database.db, asked.slice(0, size)).parameters.length)
    expect(parameterCounts).toEqual([2, 4, 8, 16, 128])

    const padded = manyAsReadStatement(database.db, asked.slice(0, 3))
    const nil = '00000000-0000-0000-0000-000000000000'
    expect(padded.parameters).toEqual([asked[0]!.id, me, asked[1]!.id, me, asked[2]!.id, me, nil, nil])
    expect(padded.sql).toMatch(
      /\(values \(\$1::uuid, \$2::uuid\), \(\$3::uuid, \$4::uuid\), \(\$5::uuid, \$6::uuid\), \(\$7::uuid, \$8::uuid\)\)/,
    )

    const texts = new Set(asked.map((_, index) => manyAsReadStatement(database.db, asked.slice(0, index + 1)).sql))
    expect(texts.size).toBe(7)
  })
})

describe('the unread messages read with the transaction', () => {
  it('counts for each asker what others wrote after their read position, both parties in one statement', async () => {
    const id = await insertTransaction({ buyer: me, seller: other })
    const message = (index: number, author: string) => ({
      id: uuidV7(new Date(1_900_000_100_000 + index)),
      transaction_id: id,
      author_role: author === me ? ('buyer' as const) : ('seller' as const),
      author_user_id: author,
      text: `message ${index}`,
      notified: false,
      created_at: new Date(1_900_000_100_000 + index),
    })
    const messages = [message(0, other), message(1, other), message(2, me), message(3, other)]
    await database.db.insertInto('transaction_messages').values(messages).execute()
    // I have read up to the second of theirs; they have read nothing of mine.
    await database.db
      .insertInto('transaction_message_reads')
      .values({ transaction_id: id, user_id: me, last_read_message_id: messages[1]!.id })
      .execute()
    const { db, statements } = countingDb()
    const reads = coalescedTransactionReads(db)
    const [mine, theirs] = await Promise.all([reads.findForParty(id, me), reads.findForParty(id, other)])
    expect([mine.unreadMessages, theirs.unreadMessages]).toEqual([1, 1])
    expect(statements()).toBe(1)
    await database.db.updateTable('transaction_message_reads').set({ last_read_message_id: messages[3]!.id }).execute()
    expect((await reads.findForParty(id, me)).unreadMessages).toBe(0)
  })
})
