import type { NotifyTemplate, Party, ReturnReason } from '@pactum/domain/transactions/kernel'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * One state-change e-mail as the engine enqueues it, in the state change's
 * own database transaction (EffectScheduler.notify), and as the
 * send-notification job (send-notification.ts) reads it back.
 */
export interface NotificationJob {
  transactionId: string
  template: NotifyTemplate
  to: Party
  /** Unique per e-mail: the state change's audit event, the template and the recipient. */
  key: string
  /** A payment sent straight back (`payment_returned`): how much, and why. */
  returned?: { amount: number; reason: ReturnReason }
  /** An admin's decision (`case_decided`): the reason both parties receive. */
  reason?: string
  /** A message of the conversation (`message_received`), quoted in the e-mail. */
  quote?: string
}

/** A transaction with what its e-mails need of its two parties (null while a role is open). */
export type TransactionForMail = {
  id: string
  type: string
  description: string
  price: number
  total_price: number | null
  currency: string
  /** The public verification page's code (decision 114): every transaction e-mail links to it. */
  verify_code: string
} & Record<`${Party}_${'id' | 'email' | 'first_name' | 'notification_language' | 'locale'}`, string | null>

export async function findTransactionsForMail(db: Kysely<Database>, transactionIds: readonly string[]): Promise<TransactionForMail[]> {
  return db
    .selectFrom('transactions')
    .leftJoin('users as buyer', 'buyer.id', 'transactions.buyer_id')
    .leftJoin('users as seller', 'seller.id', 'transactions.seller_id')
    .select([
      'transactions.id',
      'transactions.type',
      'transactions.description',
      'transactions.price',
      'transactions.total_price',
      'transactions.currency',
      'transactions.verify_code',
      'buyer.id as buyer_id',
      'buyer.email as buyer_email',
      'buyer.first_name as buyer_first_name',
      'buyer.notification_language as buyer_notification_language',
      'buyer.locale as buyer_locale',
      'seller.id as seller_id',
      'seller.email as seller_email',
      'seller.first_name as seller_first_name',
      'seller.notification_language as seller_notification_language',
      'seller.locale as seller_locale',
    ])
    .where('transactions.id', 'in', transactionIds)
    .execute()
}

/** A notifications row as send-notification.ts first writes it. */
export interface NewNotification {
  id: string
  transaction_id: string
  template: string
  recipient_role: Party
  recipient_user_id: string
  language: string
  key: string
}

/**
 * Written and claimed in one statement: a new row is claimed as it is
 * written; an existing one only if it is pending, its claim lapsed (claimed
 * before `lapsed`), or this is a retry of the job (`takeOverClaims`). The
 * language is fixed when the row is first written, so a retry writes the
 * same e-mail. Answers the rows claimed, not the others.
 */
export async function writeAndClaimNotifications(
  db: Kysely<Database>,
  notifications: readonly NewNotification[],
  claim: { now: Date; lapsed: Date; takeOverClaims: boolean | undefined },
): Promise<Array<{ id: string; key: string; language: string }>> {
  const { now, lapsed } = claim
  return db
    .insertInto('notifications')
    .values(notifications.map((notification) => ({ ...notification, status: 'sending' as const, claimed_at: now, created_at: now })))
    .onConflict((conflict) =>
      conflict
        .column('key')
        .doUpdateSet({ status: 'sending', claimed_at: now })
        .where((eb) =>
          eb.or([
            eb('notifications.status', '=', 'pending'),
            eb.and([
              eb('notifications.status', '=', 'sending'),
              claim.takeOverClaims ? eb.lit(true) : eb('notifications.claimed_at', '<', lapsed),
            ]),
          ]),
        ),
    )
    .returning(['id', 'key', 'language'])
    .execute()
}

export async function findNotificationStatuses(db: Kysely<Database>, keys: readonly string[]) {
  return db.selectFrom('notifications').select(['key', 'status']).where('key', 'in', keys).execute()
}

/** The mail server refused it for good: its reply is kept, and the claim let go. */
export async function markUndeliverable(db: Kysely<Database>, id: string, reply: string): Promise<void> {
  await db.updateTable('notifications').set({ status: 'undeliverable', claimed_at: null, failure: reply }).where('id', '=', id).execute()
}

/** Each row sent, with the id the mailer gave its message; one statement for them all. */
export async function markSent(db: Kysely<Database>, sent: ReadonlyArray<{ id: string; mailId: string }>, sentAt: Date): Promise<void> {
  await sql`
    update notifications set status = 'sent', sent_at = ${sentAt}, mail_id = sent.mail_id
    from unnest(${sent.map((row) => row.id)}::uuid[], ${sent.map((row) => row.mailId)}::text[]) as sent(id, mail_id)
    where notifications.id = sent.id`.execute(db)
}

/** Back to pending, unclaimed: nothing went out for these. */
export async function releaseClaims(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  await db.updateTable('notifications').set({ status: 'pending', claimed_at: null }).where('id', 'in', ids).execute()
}

/**
 * Recorded as `opted_out` rather than sent (the recipient turned that kind
 * off): written so, or turned so from pending (an earlier attempt failed
 * before the person changed their mind). One sent or being sent is left
 * alone. Answers the keys now marked.
 */
export async function recordOptedOut(db: Kysely<Database>, notifications: readonly NewNotification[], now: Date): Promise<string[]> {
  if (notifications.length === 0) return []
  const rows = await db
    .insertInto('notifications')
    .values(notifications.map((notification) => ({ ...notification, status: 'opted_out' as const, claimed_at: null, created_at: now })))
    .onConflict((conflict) =>
      conflict
        .column('key')
        .doUpdateSet({ status: 'opted_out', claimed_at: null })
        .where('notifications.status', 'in', ['pending', 'opted_out']),
    )
    .returning('key')
    .execute()
  return rows.map((row) => row.key)
}
