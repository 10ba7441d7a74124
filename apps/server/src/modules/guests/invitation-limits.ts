import type { Kysely } from 'kysely'
import type { LimitsConfig } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { countHit } from '../../db/rate-limit-counts.ts'
import { secondsUntil } from '../../usage-limits.ts'

/**
 * Invitation e-mails go to addresses nobody has proved belong to a user, so
 * they are counted (issue 30 #3): per sender (a signed-in user, or a partner
 * client) per hour and per day, and per recipient address across every
 * sender per day. Counted inside the database transaction that creates or
 * re-sends the invitation: one refused, or rolled back for any other
 * reason, leaves the counts as they were, and the counter rows stay locked
 * until the commit, so two senders at once are counted one after the other.
 */
export type InvitationSender = { kind: 'user'; id: string } | { kind: 'client'; id: string }

export type InvitationLimits = LimitsConfig['invitations']

const hour = 3_600
const day = 86_400

interface Counter {
  key: string
  max: number
  windowSeconds: number
  reason: 'sender_per_hour' | 'sender_per_day' | 'recipient_per_day'
  email?: string
}

export async function countInvitations(
  trx: Kysely<Database>,
  limits: InvitationLimits,
  now: Date,
  sender: InvitationSender,
  recipients: readonly string[],
): Promise<void> {
  const senderKey = `invitations|${sender.kind}:${sender.id}`
  const counters: Counter[] = [
    {
      key: `${senderKey}|hour`,
      max: sender.kind === 'user' ? limits.perSenderHour : limits.perClientHour,
      windowSeconds: hour,
      reason: 'sender_per_hour',
    },
    {
      key: `${senderKey}|day`,
      max: sender.kind === 'user' ? limits.perSenderDay : limits.perClientDay,
      windowSeconds: day,
      reason: 'sender_per_day',
    },
    ...recipients.map((email): Counter => ({
      key: `invitations|to:${email.toLowerCase()}|day`,
      max: limits.perRecipientDay,
      windowSeconds: day,
      reason: 'recipient_per_day',
      email,
    })),
  ]
  // Always in the same order, so that two transactions counting the same rows cannot wait on each other.
  const sorted = [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const over: Array<Counter & { retryAfter: number }> = []
  for (const counter of sorted) {
    // The sender's counters count e-mails: a partner's one request invites two people.
    const hits = counter.reason === 'recipient_per_day' ? 1 : recipients.length
    const hit = await countHit(trx, counter.key, counter.windowSeconds * 1000, now, hits)
    if (hit.count > counter.max) over.push({ ...counter, retryAfter: secondsUntil(hit.windowEndsAt, now) })
  }
  if (over.length === 0) return
  // Nothing can go out before the last of the full windows closes.
  const retryAfter = Math.max(...over.map((counter) => counter.retryAfter))
  const headers = { 'retry-after': String(retryAfter) }
  const bySender = over.find((counter) => counter.reason !== 'recipient_per_day')
  if (bySender) {
    throw new AppError('too_many_invitations', `You have sent as many invitations as you can for now; try again in ${retryAfter} s`, {
      details: { reason: bySender.reason, limit: bySender.max, retry_after: retryAfter },
      headers,
    })
  }
  const byRecipient = over[0]!
  throw new AppError(
    'too_many_invitations_to_recipient',
    `This address has been sent as many invitations as it can be for now; try again in ${retryAfter} s`,
    {
      details: { reason: byRecipient.reason, email: byRecipient.email, limit: byRecipient.max, retry_after: retryAfter },
      headers,
    },
  )
}
