import type { AdminTransactionQuery } from '@pactum/contracts/admin'
import { isJoinCode, tidyJoinCode } from '@pactum/domain/join-code-format'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'

type Filters = Omit<AdminTransactionQuery, 'limit' | 'after_id'> & { limit: number; afterId?: string | undefined }

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`)

/** The day after `date` (YYYY-MM-DD), as the exclusive end of an inclusive date range. */
function dayAfter(date: string): Date {
  const day = new Date(`${date}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() + 1)
  return day
}

/**
 * Every transaction of both kinds, newest first, keyset-paginated on the
 * time-ordered id like My transactions. The search matches part of the id,
 * a join code as people write it (case, separators), or part of either
 * party's e-mail.
 */
export async function listAllTransactions(db: Kysely<Database>, filters: Filters): Promise<TransactionRow[]> {
  let query = db.selectFrom('transactions').selectAll()
  if (filters.afterId) query = query.where('id', '<', filters.afterId)
  if (filters.status) query = query.where('status', '=', filters.status)
  if (filters.type) query = query.where('type', '=', filters.type)
  if (filters.currency) query = query.where('currency', '=', filters.currency)
  if (filters.client_id) query = query.where('client_id', '=', filters.client_id)
  if (filters.created_from) query = query.where('created', '>=', new Date(`${filters.created_from}T00:00:00Z`))
  if (filters.created_to) query = query.where('created', '<', dayAfter(filters.created_to))
  const search = filters.search
  if (search) {
    const pattern = `%${escapeLike(search.toLowerCase())}%`
    const code = tidyJoinCode(search)
    const emailMatches = db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(email)`, 'like', pattern)
    query = query.where((eb) =>
      eb.or([
        eb(sql`id::text`, 'like', pattern),
        // The code someone joined with too: the one a person reading it out to support still has.
        ...(isJoinCode(code) ? [eb('join_code', '=', code), eb('joined_with_code', '=', code)] : []),
        eb('buyer_id', 'in', emailMatches),
        eb('seller_id', 'in', emailMatches),
      ]),
    )
  }
  return query.orderBy('id', 'desc').limit(filters.limit).execute()
}

/** The e-mail addresses of the given users, by id. */
export async function emailsOf(db: Kysely<Database>, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))]
  if (wanted.length === 0) return new Map()
  const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', wanted).execute()
  return new Map(rows.map((row) => [row.id, row.email]))
}

function auditEvents(db: Kysely<Database>) {
  return db
    .selectFrom('transaction_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_user_id')
    .select([
      'e.id',
      'e.transaction_id',
      'e.event',
      'e.actor_kind',
      'e.actor_user_id',
      'u.email as actor_email',
      'e.reason',
      'e.from_status',
      'e.to_status',
      'e.created_at',
    ])
}

export type AuditEventRow = Awaited<ReturnType<ReturnType<typeof auditEvents>['execute']>>[number]

/** The engine's audit trail of one transaction, oldest first (its history). */
export function eventsOf(db: Kysely<Database>, transactionId: string): Promise<AuditEventRow[]> {
  return auditEvents(db).where('e.transaction_id', '=', transactionId).orderBy('e.id').execute()
}

/** A line of the admin audit log: an admin's step on a transaction, or a decision on a reconciliation difference. */
export type AuditLogRow = Omit<AuditEventRow, 'transaction_id'> & {
  transaction_id: string | null
  difference: { id: string; day: string; movement: string; provider_id: string; currency: string | null } | null
}

/**
 * What admins did, newest first, keyset-paginated on the id: their steps on
 * transactions (`transaction_events`) and their decisions on anything else
 * (`admin_decisions`, whose ids come from the same sequence), a page of
 * each merged.
 */
export async function adminActions(db: Kysely<Database>, page: { limit: number; afterId?: number | undefined }): Promise<AuditLogRow[]> {
  let steps = auditEvents(db).where('e.actor_kind', '=', 'admin')
  if (page.afterId !== undefined) steps = steps.where('e.id', '<', page.afterId)
  let decisions = db
    .selectFrom('admin_decisions as a')
    .innerJoin('reconciliation_differences as d', 'd.id', 'a.reconciliation_difference_id')
    .leftJoin('users as u', 'u.id', 'a.admin_user_id')
    .select([
      'a.id',
      'a.decision',
      'a.admin_user_id',
      'u.email as actor_email',
      'a.reason',
      'a.from_status',
      'a.to_status',
      'a.created_at',
      'd.id as difference_id',
      'd.day',
      'd.movement',
      'd.provider_id',
      'd.ledger_currency',
      'd.provider_currency',
    ])
  if (page.afterId !== undefined) decisions = decisions.where('a.id', '<', page.afterId)
  const [onTransactions, elsewhere] = await Promise.all([
    steps.orderBy('e.id', 'desc').limit(page.limit).execute(),
    decisions.orderBy('a.id', 'desc').limit(page.limit).execute(),
  ])
  const rows: AuditLogRow[] = [
    ...onTransactions.map((row) => ({ ...row, difference: null })),
    ...elsewhere.map((row) => ({
      id: row.id,
      transaction_id: null,
      event: row.decision,
      actor_kind: 'admin',
      actor_user_id: row.admin_user_id,
      actor_email: row.actor_email,
      reason: row.reason,
      from_status: row.from_status,
      to_status: row.to_status,
      created_at: row.created_at,
      difference: {
        id: row.difference_id,
        day: row.day,
        movement: row.movement,
        provider_id: row.provider_id,
        currency: row.ledger_currency ?? row.provider_currency,
      },
    })),
  ]
  return rows.sort((a, b) => Number(b.id) - Number(a.id)).slice(0, page.limit)
}

/**
 * One transaction's journal entries with their postings, in the order they
 * were written: entries of one clock instant tie on created_at and their ids
 * are random, so the postings' serial ids give the order.
 */
export async function ledgerEntriesOf(db: Kysely<Database>, transactionId: string) {
  const entries = await db.selectFrom('ledger_entries').selectAll().where('transaction_id', '=', transactionId).execute()
  if (entries.length === 0) return []
  const postings = await db
    .selectFrom('ledger_postings')
    .select(['entry_id', 'account', 'amount', 'currency'])
    .where(
      'entry_id',
      'in',
      entries.map((entry) => entry.id),
    )
    .orderBy('id')
    .execute()
  const order = [...new Set(postings.map((posting) => posting.entry_id))]
  return entries
    .toSorted((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
    .map((entry) => ({
      ...entry,
      postings: postings
        .filter((posting) => posting.entry_id === entry.id)
        .map(({ account, amount, currency }) => ({ account, amount: Number(amount), currency })),
    }))
}

/** Provider webhooks whose payment event names the transaction (metadata.transaction_id). */
export function providerEventsOf(db: Kysely<Database>, transactionId: string) {
  return db
    .selectFrom('provider_events')
    .select(['id', 'provider', 'event_id', 'type', 'created', 'received_at', 'processed_at'])
    .where(sql`domain_event->>'transactionId'`, '=', transactionId)
    .orderBy('created')
    .orderBy('received_at')
    .execute()
}

/** The e-mails the state changes asked for, oldest first. */
export function notificationsOf(db: Kysely<Database>, transactionId: string) {
  return db
    .selectFrom('notifications')
    .select(['id', 'template', 'recipient_role', 'language', 'status', 'created_at', 'sent_at', 'failure'])
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at')
    .execute()
}

/** The partner clients with how many transactions each has brought. */
export function clientsWithCounts(db: Kysely<Database>, clientId?: string) {
  let query = db
    .selectFrom('clients as c')
    .select([
      'c.id',
      'c.name',
      'c.url',
      'c.background_color',
      'c.text_color',
      'c.routes',
      'c.mobile_navbar_hidden',
      'c.show_seller_confirm_handover',
      'c.contact_email',
      'c.seeded_settings',
      'c.api_key_issued_at',
      'c.updated_at',
      (eb) =>
        eb.selectFrom('transactions as t').select(eb.fn.countAll<string>().as('n')).whereRef('t.client_id', '=', 'c.id').as('transactions'),
    ])
  if (clientId !== undefined) query = query.where('c.id', '=', clientId)
  return query.orderBy('c.name').orderBy('c.id').execute()
}

export type ClientWithCountRow = Awaited<ReturnType<typeof clientsWithCounts>>[number]
