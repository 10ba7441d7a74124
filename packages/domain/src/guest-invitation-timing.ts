/**
 * How long a guest invitation's link works, and how often its creator may
 * send it again (issue 12 leftovers). Browser-safe: the web app shows the
 * same expiry the server enforces.
 *
 * 14 days: long enough for someone who reads mail weekly, short enough that
 * a forgotten link in an old mailbox stops working before the offer goes
 * stale. Re-sending restarts the period with a new link.
 */
export const guestInvitationValidityDays = 14

/** At most one e-mail a minute per invitation, so the re-send button cannot be used to flood an inbox. */
export const guestInvitationResendIntervalSeconds = 60

/** And at most this many e-mails in all (the first one included): past it, the creator cancels and starts again. */
export const guestInvitationMaxSends = 10

const dayMs = 24 * 60 * 60 * 1000

/** When a link sent at `sentAt` stops working. */
export function invitationExpiresAt(sentAt: Date): Date {
  return new Date(sentAt.getTime() + guestInvitationValidityDays * dayMs)
}

export function isInvitationExpired(sentAt: Date, now: Date): boolean {
  return now.getTime() >= invitationExpiresAt(sentAt).getTime()
}

export type ResendCheck =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: 'too_soon'; readonly retryAfterSeconds: number }
  | { readonly allowed: false; readonly reason: 'too_many' }

/** Whether the invitation, last sent at `sentAt` and sent `sends` times so far, may go out again at `now`. */
export function checkResend(sentAt: Date, sends: number, now: Date): ResendCheck {
  if (sends >= guestInvitationMaxSends) return { allowed: false, reason: 'too_many' }
  const waitMs = sentAt.getTime() + guestInvitationResendIntervalSeconds * 1000 - now.getTime()
  if (waitMs > 0) return { allowed: false, reason: 'too_soon', retryAfterSeconds: Math.ceil(waitMs / 1000) }
  return { allowed: true }
}
