import { createHash } from 'node:crypto'
import { currentTermsVersion } from '@pactum/domain/terms'
import type { AccountProfile } from '../../adapters/payment-provider/connected-accounts-port.ts'
import { PaymentProviderError } from '../../adapters/payment-provider/provider-error.ts'
import { fieldError } from '../../errors.ts'
import { lastRepairFingerprint, recordRepairAnswered } from './account-profile-repairs-repository.ts'
import type { PayoutAccountDeps } from './payout-account.ts'
import { dateOfBirth, loadProfileRow } from './profile-repository.ts'

/**
 * The seller's profile as the payment provider needs it before it pays out
 * (name, birth date, address, phone, the terms' acceptance with its IP):
 * Pactum's screens collect it, and it is forwarded to the connected account
 * whenever it changes, when the account is created, and again when the
 * provider still asks for something Pactum already has (a forward that
 * failed, or a profile saved before forwarding existed).
 */
export async function forwardAccountProfile(deps: PayoutAccountDeps, userId: string, accountId: string): Promise<void> {
  const profile = await loadAccountProfile(deps, userId)
  // The same profile, the same key: a retry is answered from the first call, a change is a new update.
  try {
    await deps.connectedAccounts.updateAccountProfile({
      accountId,
      profile,
      idempotencyKey: `account-profile:${accountId}:${fingerprintOf(profile)}`,
    })
  } catch (error) {
    throw asFieldError(error)
  }
}

/**
 * The provider still asks for something Pactum has: the profile goes once
 * more, once per profile. Whatever the provider answers (it takes the
 * profile or refuses it) is kept, so reading the payout requirements of a
 * refused profile does not ask the provider each time; a changed profile is
 * forwarded when it is saved, and may be repaired once in its turn. No
 * answer (the provider unreachable) is tried again on the next read.
 * Says whether the provider was asked.
 */
export async function repairAccountProfile(deps: PayoutAccountDeps, userId: string, accountId: string, now: Date): Promise<boolean> {
  const profile = await loadAccountProfile(deps, userId)
  const fingerprint = fingerprintOf(profile)
  if ((await lastRepairFingerprint(deps.db, accountId)) === fingerprint) return false
  try {
    // A key of its own: the account changed since this profile's first forward, which would only be replayed.
    await deps.connectedAccounts.updateAccountProfile({
      accountId,
      profile,
      idempotencyKey: `account-profile:${accountId}:${fingerprint}:repair`,
    })
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error
  }
  await recordRepairAnswered(deps.db, accountId, fingerprint, now)
  return true
}

function fingerprintOf(profile: AccountProfile): string {
  return createHash('sha256').update(JSON.stringify(profile)).digest('hex').slice(0, 32)
}

/** Forwarded only where the account exists: one is created on first need, and forwards the profile then. */
export async function forwardAccountProfileIfAccount(deps: PayoutAccountDeps, userId: string): Promise<void> {
  const account = await deps.connectedAccounts.findConnectedAccount(userId)
  if (account) await forwardAccountProfile(deps, userId, account.id)
}

async function loadAccountProfile(deps: PayoutAccountDeps, userId: string): Promise<AccountProfile> {
  const row = await loadProfileRow(deps.db, userId)
  // An acceptance of older terms, or one recorded before its IP was kept, is not one the provider can take.
  const acceptedNow = row.tos_accepted_at !== null && row.tos_version_accepted === currentTermsVersion && row.tos_accepted_ip !== null
  return {
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    dob: dateOfBirth(row.dob),
    address:
      row.address_line1 && row.address_city
        ? {
            line1: row.address_line1,
            line2: row.address_line2,
            city: row.address_city,
            state: row.address_state,
            postalCode: row.address_postal_code,
          }
        : null,
    businessUrl: row.business_url,
    tosAcceptance: acceptedNow
      ? { date: row.tos_accepted_at as Date, ip: row.tos_accepted_ip as string, userAgent: row.tos_accepted_user_agent }
      : null,
  }
}

/** The provider's parameter names (Stripe's `individual[address][postal_code]`) as the profile body's fields. */
const fieldsByParam: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
  [/^individual\[address\]\[(\w+)\]/, (match) => `body.address.${match[1]}`],
  [/^individual\[dob\]/, () => 'body.dob'],
  [/^individual\[first_name\]/, () => 'body.name.first'],
  [/^individual\[last_name\]/, () => 'body.name.last'],
  [/^individual\[phone\]/, () => 'body.phone'],
  [/^business_profile\[url\]/, () => 'body.url'],
]

/** A refusal of what the seller typed names the field, as our own checks do; anything else stays the provider's error. */
function asFieldError(error: unknown): unknown {
  if (!(error instanceof PaymentProviderError) || error.code !== 'invalid_request' || !error.param) return error
  for (const [pattern, field] of fieldsByParam) {
    const match = error.param.match(pattern)
    if (match) return fieldError(field(match), error.message)
  }
  return error
}
