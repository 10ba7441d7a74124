import type { Kysely } from 'kysely'
import { Secret, TOTP } from 'otpauth'
import encodeQR from 'qr'
import type { Database } from '../../../db/schema.ts'
import {
  confirmTotpSecret,
  deleteTotpFactor,
  findTotpConfirmedAt,
  findTotpSecret,
  storeUnconfirmedTotpSecret,
  useTotpStep,
} from './totp-repository.ts'

/**
 * An authenticator app as a second factor of the embedded sign-in (issue 30):
 * RFC 6238 time-based codes of six digits every 30 seconds, SHA-1, which is
 * what every authenticator app reads from an `otpauth://` link.
 *
 * Set-up keeps the new secret unconfirmed until the person types a code the
 * app made from it, so a mistyped or unscanned secret never locks anyone out.
 * A code is accepted one step either side of now (clocks drift) and only once:
 * the step of the last code accepted is kept, and a code of that step or an
 * earlier one is refused, even from a second process at the same moment (the
 * update is conditional on it).
 */

const period = 30
const digits = 6
/** One step either side: a phone a little fast or slow, or a code typed as it turned. */
const window = 1

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({ issuer: 'Pactum', label: email, algorithm: 'SHA1', digits, period, secret: Secret.fromBase32(secret) })
}

/** What the Account page shows while setting up: the secret as text, as a link and as a QR code of the link (an SVG data URL). */
export interface TotpEnrolment {
  secret: string
  uri: string
  qrDataUrl: string
}

export type TotpStatus = { enabled: false } | { enabled: true; since: Date }

export async function totpStatus(db: Kysely<Database>, accountId: string): Promise<TotpStatus> {
  const row = await findTotpConfirmedAt(db, accountId)
  return row?.confirmed_at ? { enabled: true, since: row.confirmed_at } : { enabled: false }
}

/**
 * A new secret for the account, unconfirmed; 'already_enabled' when the
 * account has a confirmed one (it must be removed first, on purpose, with the
 * password). Starting again before confirming replaces the unconfirmed one.
 */
export async function beginTotpEnrolment(
  db: Kysely<Database>,
  account: { id: string; email: string },
  now: Date,
): Promise<TotpEnrolment | 'already_enabled'> {
  const secret = new Secret({ size: 20 }).base32
  const stored = await storeUnconfirmedTotpSecret(db, account.id, secret, now)
  if (!stored) return 'already_enabled'
  const uri = totpOf(secret, account.email).toString()
  const svg = encodeQR(uri, 'svg', { ecc: 'medium', border: 2 })
  return { secret, uri, qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` }
}

/** The account's secret being set up (`confirmed` false) or in use, and the step `code` is of it; null when it is no code of it now. */
async function matchCode(db: Kysely<Database>, account: { id: string; email: string }, confirmed: boolean, code: string, now: Date) {
  const row = await findTotpSecret(db, account.id, confirmed)
  const step = row ? stepOf(row.secret, account.email, code, now) : null
  return row && step !== null ? { secret: row.secret, step } : null
}

/** Confirms the unconfirmed secret with a code the app made from it; the code is used up. */
export async function confirmTotpEnrolment(
  db: Kysely<Database>,
  account: { id: string; email: string },
  code: string,
  now: Date,
): Promise<boolean> {
  const match = await matchCode(db, account, false, code, now)
  if (!match) return false
  return confirmTotpSecret(db, account.id, match.secret, match.step, now)
}

/** Whether `code` is a fresh code of the account's confirmed secret; a right code is used up. */
export async function useTotpCode(db: Kysely<Database>, account: { id: string; email: string }, code: string, now: Date): Promise<boolean> {
  const match = await matchCode(db, account, true, code, now)
  if (!match) return false
  return useTotpStep(db, account.id, match.step)
}

export async function removeTotp(db: Kysely<Database>, accountId: string): Promise<boolean> {
  return deleteTotpFactor(db, accountId)
}

/** The 30-second step `code` belongs to, within the window around now, or null. */
function stepOf(secret: string, email: string, code: string, now: Date): number | null {
  const token = code.replace(/\s/g, '')
  if (!new RegExp(`^\\d{${digits}}$`).test(token)) return null
  const delta = totpOf(secret, email).validate({ token, timestamp: now.getTime(), window })
  if (delta === null) return null
  return Math.floor(now.getTime() / 1000 / period) + delta
}

/** For tests and the e2e helper's twin: the code of `secret` at `at`. */
export function totpCodeAt(secret: string, at: Date): string {
  return totpOf(secret, 'test').generate({ timestamp: at.getTime() })
}
