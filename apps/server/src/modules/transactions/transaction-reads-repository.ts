import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import DataLoader from 'dataloader'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { uuidPattern } from '../../ids.ts'
import { type AskedRead, askedReadKey, findManyAsRead, notFound, takesPart, type TransactionAsRead } from './transactions-repository.ts'

/** The reads of one transaction that the status pages poll (GET /transactions/{id} and /p2p/transactions/{id}). */
export interface TransactionReads {
  /**
   * A transaction the user takes part in, with its unclaimed guest
   * invitation and the messages the user has not read. Anyone else, a
   * malformed id and a transaction of the other kind (when `kind` is given)
   * get the same 404 as a missing one.
   */
  findForParty(id: string, userId: string, kind?: TransactionKind): Promise<TransactionAsRead>
}

/**
 * At most this many ids in one statement: a bounded answer however many ask
 * at once, and seven statement texts (1, 2, 4, … 64 reads; findManyAsRead).
 */
const maxBatchSize = 64

/**
 * The reads asked for while the server works through the requests of one
 * turn of the event loop go to the database together, as one statement.
 *
 * Every open status page asks every few seconds; under load most of a
 * read's cost was its round trip (the query's write waking a database
 * backend, its answer's row description parsed, the statement built), not
 * the row. The batch is dispatched from `setImmediate`, after the poll
 * phase has handed over every socket that was ready; DataLoader's own
 * default (the end of the current tick) would batch only the reads of one
 * request. Nothing is cached between batches: each read sees what was
 * committed before its batch was sent, never older. Measured in
 * docs/decisions/075-coalesced-reads-of-one-transaction.md ("Coalesced reads of one transaction").
 */
export function coalescedTransactionReads(db: Kysely<Database>): TransactionReads {
  const loader = new DataLoader<AskedRead, TransactionAsRead | null>(
    async (asked) => {
      const found = await findManyAsRead(db, asked)
      return asked.map((read) => found.get(askedReadKey(read)) ?? null)
    },
    { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch), maxBatchSize },
  )
  return {
    async findForParty(id, userId, kind) {
      if (!uuidPattern.test(id)) throw notFound()
      const found = await loader.load({ id, viewerId: userId })
      // The batch holds others' transactions too: each caller gets only one it takes part in.
      if (!found || !takesPart(found.row, userId) || (kind && found.row.type !== kind)) throw notFound()
      return found
    },
  }
}
