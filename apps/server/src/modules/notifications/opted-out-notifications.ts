import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { optOutsOf } from '../profile/notification-opt-outs-repository.ts'
import type { EmailCategory } from './notification-categories.ts'
import { type NewNotification, recordOptedOut } from './notifications-repository.ts'

/**
 * The e-mails of a batch whose recipients turned their category off
 * (decision 101), recorded as `opted_out` so that neither this job nor a
 * retry sends them. Answers their keys. E-mails of category `always` are
 * never looked at.
 */
export async function leaveOutOptedOut(
  db: Kysely<Database>,
  candidates: ReadonlyArray<{ notification: NewNotification; category: EmailCategory }>,
  now: Date,
): Promise<Set<string>> {
  const optional = candidates.filter(({ category }) => category !== 'always')
  if (optional.length === 0) return new Set()
  const optOuts = await optOutsOf(db, [...new Set(optional.map(({ notification }) => notification.recipient_user_id))])
  const off = new Set(optOuts.map((optOut) => `${optOut.user_id}:${optOut.category}`))
  const skipped = optional.filter(({ notification, category }) => off.has(`${notification.recipient_user_id}:${category}`))
  return new Set(
    await recordOptedOut(
      db,
      skipped.map(({ notification }) => notification),
      now,
    ),
  )
}
