import type { TransactionFilter } from '@pactum/contracts/transactions'
import type { Party } from '@pactum/domain/transactions/kernel'
import { filterClauses } from '@pactum/domain/transactions/list-filters'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import { type Compilable, type CompiledQuery, type Expression, type ExpressionBuilder, type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { statementTemplate } from '../../db/statement-template.ts'
import { AppError } from '../../errors.ts'
import { uuidPattern } from '../../ids.ts'
import type { TransactionRow } from './engine/transaction-state.ts'

/**
 * Reads a transaction the user takes part in. Anyone else, a malformed id,
 * and a transaction of the other kind (an online id under /p2p) get the same
 * 404 as a missing one: existence is never revealed.
 */
export async function findForParty(db: Kysely<Database>, id: string, userId: string, kind?: TransactionKind): Promise<TransactionRow> {
  if (!uuidPattern.test(id)) throw notFound()
  let query = db
    .selectFrom('transactions')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => isParty(eb, userId))
  if (kind) query = query.where('type', '=', kind)
  const row = await query.executeTakeFirst()
  if (!row) throw notFound()
  return row
}

/** A guest invitation not yet claimed, as stored. */
export interface UnclaimedInvitation {
  email: string
  role: Party
  sent_at: Date
}

/** A transaction with its unclaimed guest invitation (if any), as the status page reads them. */
export interface TransactionWithInvitation {
  row: TransactionRow
  unclaimedInvitation: UnclaimedInvitation | null
}

/** A transaction as one of its parties' status page reads it: with the messages of its conversation that party has not read. */
export interface TransactionAsRead extends TransactionWithInvitation {
  unreadMessages: number
}

/** One read of a transaction by the user asking (`viewerId`); a batch holds many. */
export interface AskedRead {
  id: string
  viewerId: string
}

/** The key of an asked read in findManyAsRead's answer. */
export const askedReadKey = (asked: AskedRead) => `${asked.id} ${asked.viewerId}`

/**
 * Several transactions by id, each with its unclaimed guest invitation and
 * the count of messages its asker has not read (unreadMessagesOf), in one statement (built once per size,
 * statement-template.ts). No party check: `transaction-reads-repository.ts`
 * makes it for each caller. Keyed by askedReadKey.
 *
 * The asked reads go as `(values ($1, $2), …)` with as many pairs as the
 * next power of two (the rest the nil UUID, which no transaction has): a
 * handful of texts, each prepared once and run on one generic plan.
 * PostgreSQL planned an earlier `id = any($1)` afresh every time (0.08 ms,
 * twice its execution), as a generic plan reckons an array of unknown
 * length at ten ids, dearer than the few of a batch; with as many
 * parameters as ids both plans are reckoned alike (docs/decisions/073-prepared-statements.md,
 * "Statements PostgreSQL planned every time").
 */
export async function findManyAsRead(db: Kysely<Database>, asked: readonly AskedRead[]): Promise<Map<string, TransactionAsRead>> {
  if (asked.length === 0) return new Map()
  const { rows } = await db.executeQuery(manyAsReadStatement(db, asked))
  const found = new Map<string, TransactionAsRead>()
  for (const row of rows) {
    const { invitation_email: email, invitation_role: role, invitation_sent_at: sentAt } = row
    // The row keeps the extra columns, unseen behind its type: taking them off
    // copied its 70 fields one by one (`...row`, 2.5 % of a GET, issue 13). Views pick their fields by name.
    found.set(askedReadKey({ id: row.id, viewerId: row.asked_by }), {
      row,
      unclaimedInvitation: email && role && sentAt ? { email, role, sent_at: sentAt } : null,
      unreadMessages: row.unread_messages ?? 0,
    })
  }
  return found
}

/** No transaction's id nor anyone's: what fills a batch up to its size. */
const nilUuid = '00000000-0000-0000-0000-000000000000'

/** The asked reads as named values `id0`, `viewer0`, …, as many pairs as the next power of two. */
function paddedReads(asked: readonly AskedRead[]): Record<string, string> {
  const size = 2 ** Math.ceil(Math.log2(asked.length))
  const named: Record<string, string> = {}
  for (let index = 0; index < size; index++) {
    named[`id${index}`] = asked[index]?.id ?? nilUuid
    named[`viewer${index}`] = asked[index]?.viewerId ?? nilUuid
  }
  return named
}

/** findManyAsRead's statement for these reads (exported for the tests of its text). */
export function manyAsReadStatement(db: Kysely<Database>, asked: readonly AskedRead[]) {
  return manyAsReadTemplate(db, { batch: paddedReads(asked) })
}

const manyAsReadTemplate = statementTemplate((db, { batch }: { batch: Record<string, string> }) => {
  const pairs = Array.from(
    { length: Object.keys(batch).length / 2 },
    (_, index) => sql`(${batch[`id${index}`]}::uuid, ${batch[`viewer${index}`]}::uuid)`,
  )
  const asked = sql<{ id: string; asked_by: string }>`(values ${sql.join(pairs)})`.as<'asked'>(sql`asked(id, asked_by)`)
  return db
    .selectFrom(asked)
    .innerJoin('transactions', 'transactions.id', 'asked.id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('guest_invitations')
          .select(['email as invitation_email', 'role as invitation_role', 'sent_at as invitation_sent_at'])
          .whereRef('guest_invitations.transaction_id', '=', 'transactions.id')
          .where('guest_invitations.claimed_at', 'is', null)
          .limit(sql.lit(1))
          .as('invitation'),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(unreadMessagesOf(sql.ref('asked.id'), sql.ref('asked.asked_by')), (join) => join.onTrue())
    .selectAll('transactions')
    .select([
      'invitation.invitation_email',
      'invitation.invitation_role',
      'invitation.invitation_sent_at',
      'asked.asked_by',
      'unread.unread_messages',
    ])
})

/** The same, locked for the rest of the database transaction (state changes serialise on it). */
export async function lockForParty(trx: Kysely<Database>, id: string, userId: string, kind?: TransactionKind): Promise<TransactionRow> {
  if (!uuidPattern.test(id)) throw notFound()
  let query = trx
    .selectFrom('transactions')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => isParty(eb, userId))
  if (kind) query = query.where('type', '=', kind)
  const row = await query.forUpdate().executeTakeFirst()
  if (!row) throw notFound()
  return row
}

/** Admins read any transaction; a malformed or unknown id is 404 all the same. */
export async function findById(db: Kysely<Database>, id: string): Promise<TransactionRow> {
  if (!uuidPattern.test(id)) throw notFound()
  const row = await db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound()
  return row
}

/**
 * A transaction another row names (a guest invitation's `transaction_id`),
 * so it exists: its absence is Kysely's NoResultError, never a 404. With
 * `lock`, locked for the rest of the database transaction.
 */
export async function getNamedTransaction(db: Kysely<Database>, id: string, options: { lock: boolean }): Promise<TransactionRow> {
  const query = db.selectFrom('transactions').selectAll().where('id', '=', id)
  return (options.lock ? query.forUpdate() : query).executeTakeFirstOrThrow()
}

/**
 * The transactions of this kind whose live code (`join_code`) or spent one
 * (`joined_with_code`, kept for its joiner's replay) is `code`; with `lock`,
 * locked for the rest of the database transaction.
 */
export async function findByJoinCode(
  db: Kysely<Database>,
  column: 'join_code' | 'joined_with_code',
  code: string,
  kind: TransactionKind | null,
  options: { lock: boolean },
): Promise<TransactionRow[]> {
  let query = db.selectFrom('transactions').selectAll().where(column, '=', code)
  // A live code is unique across both kinds (transactions_join_code_key): null asks for either.
  if (kind) query = query.where('type', '=', kind)
  return (options.lock ? query.forUpdate() : query).execute()
}

/** A partner client's setting that a new face-to-face transaction copies; undefined when no such client. */
export async function findClientHandoverSetting(
  db: Kysely<Database>,
  clientId: string,
): Promise<{ show_seller_confirm_handover: boolean } | undefined> {
  return db.selectFrom('clients').select('show_seller_confirm_handover').where('id', '=', clientId).executeTakeFirst()
}

/** The same of a client known to exist (the caller signed in as it): Kysely's NoResultError otherwise. */
export async function getClientHandoverSetting(db: Kysely<Database>, clientId: string): Promise<{ show_seller_confirm_handover: boolean }> {
  return db.selectFrom('clients').select('show_seller_confirm_handover').where('id', '=', clientId).executeTakeFirstOrThrow()
}

/** For the system (timers, webhooks) and admins: no party check. */
export async function lockById(trx: Kysely<Database>, id: string): Promise<TransactionRow | undefined> {
  if (!uuidPattern.test(id)) return undefined
  return trx.selectFrom('transactions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}

/** Several rows locked at once, in id order (the order every multi-row locker uses, so none deadlocks another). */
export async function lockManyById(trx: Kysely<Database>, ids: string[]): Promise<Map<string, TransactionRow>> {
  const valid = [...new Set(ids.filter((id) => uuidPattern.test(id)))]
  if (valid.length === 0) return new Map()
  const rows = await trx.selectFrom('transactions').selectAll().where('id', 'in', valid).orderBy('id').forUpdate().execute()
  return new Map(rows.map((row) => [row.id, row]))
}

export function notFound(): AppError {
  return new AppError('not_found', 'No such transaction')
}

/** Who takes part in a transaction: its buyer, its seller, or its creator (who may not have a role yet). */
function isParty(eb: ExpressionBuilder<Database, 'transactions'>, userId: string) {
  return eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId), eb('creator_id', '=', userId)])
}

/** The same rule for a row already read (a batch read by id for several callers). */
export function takesPart(row: Pick<TransactionRow, 'buyer_id' | 'seller_id' | 'creator_id'>, userId: string): boolean {
  return row.buyer_id === userId || row.seller_id === userId || row.creator_id === userId
}

/**
 * A list filter for one party, as SQL: the domain's clauses (kind, statuses
 * and the flags whose move it is depends on), so that the list and the
 * status page agree on what needs someone's input.
 */
function matchesFilter(eb: ExpressionBuilder<Database, 'transactions'>, filter: TransactionFilter, role: Party) {
  return eb.or(
    filterClauses(filter, role).map((clause) =>
      eb.and([
        eb('type', '=', clause.kind),
        eb('status', 'in', [...clause.statuses]),
        ...(clause.isPaymentInProgress === undefined ? [] : [eb('is_payment_in_progress', '=', clause.isPaymentInProgress)]),
        ...(clause.sellerConfirmsHandover === undefined ? [] : [eb('seller_confirms_handover', '=', clause.sellerConfirmsHandover)]),
      ]),
    ),
  )
}

/** Which of a user's transactions a list page holds. */
export interface ListQuery {
  userId: string
  limit: number
  afterId?: string | undefined
  filter?: TransactionFilter | undefined
  search?: string | undefined
  kind?: TransactionKind | undefined
}

/** The columns a row of My transactions is made of (`toTransactionSummary`). */
export const summaryColumns = [
  'id',
  'type',
  'status',
  'buyer_id',
  'seller_id',
  'description',
  'currency',
  'listing_id',
  'price',
  'total_price',
] as const
/**
 * `created` comes as the text the answer carries (`toISOString`'s form, to
 * the millisecond, cut as a Date cuts it): parsing 50 timestamps into Dates
 * and writing them out again was 7 % of a summary page's time.
 */
export type TransactionSummaryRow = Pick<TransactionRow, (typeof summaryColumns)[number]> & {
  created: string
  /** The lister's unread messages in its conversation (unreadMessagesOf). */
  unread_messages: number | null
  /** The other party's first name and the initial of their surname; null before they joined. */
  counterparty_first_name: string | null
  counterparty_initial: string | null
}
const createdAsIsoText = sql<string>`to_char(t.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('created')

/**
 * Newest first, keyset-paginated on the time-ordered id; both kinds unless
 * `kind` says otherwise.
 *
 * One branch per column that makes the user a party, each walking its own
 * (party, id) index newest first and stopping at `limit`; the page is the
 * newest `limit` of their union. A page so reads at most `limit` entries of
 * each index whoever asks, where one OR'd condition made PostgreSQL choose
 * between scanning the whole table's ids backwards (fast only while the
 * user's rows are among the newest) and reading every one of the user's
 * rows (docs/decisions/074-list-walks-the-party-indexes.md, "The list walks the party indexes").
 */
/** A transaction of a page, with the lister's unread messages in its conversation (unreadMessagesOf). */
export type ListedTransactionRow = TransactionRow & { unread_messages: number | null }

export async function listForUser(db: Kysely<Database>, query: ListQuery): Promise<ListedTransactionRow[]> {
  return (await db.executeQuery(fullPageStatement(db, query))).rows
}

/** The same page, only the columns of its rows' summaries. */
export async function listSummariesForUser(db: Kysely<Database>, query: ListQuery): Promise<TransactionSummaryRow[]> {
  return (await db.executeQuery(summaryPageStatement(db, query))).rows
}

/** A page's values, sent in place of the stand-ins of its statement (statement-template.ts). */
interface PageValues {
  userId: string
  afterId: string | undefined
  /** The search as an ILIKE pattern, its wildcards escaped. */
  pattern: string | undefined
}

/**
 * What changes a page's statement besides which values are set: its filter,
 * its kind and its size. The size is written into the text: PostgreSQL
 * prices a generic plan's `limit $n` as a tenth of the rows, so with the
 * size a parameter it planned every page afresh (0.18 ms, as long as the
 * page's execution), where with `limit 50` it keeps one generic plan after
 * five pages (docs/decisions/073-prepared-statements.md, "Statements PostgreSQL planned every time").
 */
interface PageStructure {
  filter: TransactionFilter | undefined
  kind: TransactionKind | undefined
  limit: number
}

/**
 * A page's statement, built once for each filter, kind and set of values
 * given (Kysely's building was 7 % of a list page's time). The filter and
 * the kind come from the validated query's enums: a handful of statements.
 */
function pageStatements<Row>(select: (db: Kysely<Database>, ids: ReturnType<typeof pageIds>, page: PageValues) => Compilable<Row>) {
  const byStructure = new Map<string, (db: Kysely<Database>, values: { page: PageValues }) => CompiledQuery<Row>>()
  return (db: Kysely<Database>, query: ListQuery): CompiledQuery<Row> => {
    // Validated at the boundary (1 to 50); checked again because it becomes part of the statement's text.
    if (!Number.isSafeInteger(query.limit) || query.limit < 1)
      throw new RangeError(`a page's size must be a positive integer, not ${query.limit}`)
    const structure: PageStructure = { filter: query.filter, kind: query.kind, limit: query.limit }
    const key = `${structure.filter ?? ''}/${structure.kind ?? ''}/${structure.limit}`
    let statement = byStructure.get(key)
    if (!statement) {
      statement = statementTemplate((builder, { page }: { page: PageValues }) => select(builder, pageIds(builder, page, structure), page))
      byStructure.set(key, statement)
    }
    const pattern = query.search ? `%${query.search.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : undefined
    return statement(db, { page: { userId: query.userId, afterId: query.afterId, pattern } })
  }
}

/**
 * The messages of a transaction's conversation that `viewer` has not read:
 * those others wrote after the viewer's read position (all of them before
 * the viewer read any). A lateral subquery, so that the status page's read
 * and the list's page count them in their own statement: in a statement of
 * its own per request it had cost the status page 60 % of its throughput
 * (issue 36, decision 126).
 */
function unreadMessagesOf(transactionId: Expression<string>, viewer: unknown) {
  return sql<{ unread_messages: number }>`(
    select count(*)::int as unread_messages
    from transaction_messages as m
    left join transaction_message_reads as r on r.transaction_id = m.transaction_id and r.user_id = ${viewer}
    where m.transaction_id = ${transactionId} and m.author_user_id <> ${viewer}
      and (r.last_read_message_id is null or m.id > r.last_read_message_id)
  )`.as('unread')
}

/** A page's statements, compiled (exported for the tests of their text). */
export const fullPageStatement = pageStatements((db, ids, page) =>
  db
    .selectFrom('transactions')
    .leftJoinLateral(unreadMessagesOf(sql.ref('transactions.id'), page.userId), (join) => join.onTrue())
    .selectAll('transactions')
    .select('unread.unread_messages')
    .where('transactions.id', 'in', ids)
    .orderBy('transactions.id', 'desc'),
)
/**
 * The summaries join the other party's name in the same statement (one
 * primary-key lookup per row of the page, never a query per row). Only the
 * surname's initial leaves the database: a row names the person, it does not
 * hand out their full name (docs/decisions/103-names-tracking-links-quiet-saves.md).
 */
export const summaryPageStatement = pageStatements((db, ids, page) =>
  db
    .selectFrom('transactions as t')
    .leftJoin('users as counterparty', (join) =>
      join.on((eb) =>
        eb(
          'counterparty.id',
          '=',
          eb.case().when('t.buyer_id', '=', page.userId).then(eb.ref('t.seller_id')).else(eb.ref('t.buyer_id')).end(),
        ),
      ),
    )
    .leftJoinLateral(unreadMessagesOf(sql.ref('t.id'), page.userId), (join) => join.onTrue())
    .select([
      ...summaryColumns.map((column) => `t.${column}` as const),
      createdAsIsoText,
      'counterparty.first_name as counterparty_first_name',
      sql<string | null>`left(counterparty.last_name, 1)`.as('counterparty_initial'),
      'unread.unread_messages',
    ])
    .where('t.id', 'in', ids)
    .orderBy('t.id', 'desc'),
)

/**
 * The ids of a page. `page` holds stand-ins: whether a value is set decides
 * the statement's shape, what it is never shows here.
 */
function pageIds(db: Kysely<Database>, page: PageValues, { filter, kind, limit }: PageStructure) {
  const pageSize = sql.lit(limit)
  const newestOf = (party: 'buyer_id' | 'seller_id' | 'creator_id', role?: Party) => {
    let branch = db.selectFrom('transactions').select('id').where(party, '=', page.userId)
    if (filter && role) branch = branch.where((eb) => matchesFilter(eb, filter, role))
    if (kind) branch = branch.where('type', '=', kind)
    if (page.afterId !== undefined) branch = branch.where('id', '<', page.afterId)
    const { pattern } = page
    if (pattern !== undefined)
      branch = branch.where((eb) =>
        eb.or([eb('description', 'ilike', pattern), eb(sql`id::text`, 'ilike', pattern), eb('join_code', 'ilike', pattern)]),
      )
    // A derived table, so that its ORDER BY and LIMIT stay its own inside the UNION.
    return db.selectFrom(branch.orderBy('id', 'desc').limit(pageSize).as('newest')).select('newest.id')
  }
  // A filter asks what needs the user as buyer or as seller; without one, the creator's own sales count too.
  const [first, ...others] = filter
    ? [newestOf('buyer_id', 'buyer'), newestOf('seller_id', 'seller')]
    : [newestOf('buyer_id'), newestOf('seller_id'), newestOf('creator_id')]
  const ids = others.reduce((union, branch) => union.union(branch), first!)
  return db.selectFrom(ids.as('page')).select('page.id').orderBy('page.id', 'desc').limit(pageSize)
}
