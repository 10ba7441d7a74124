import { randomUUID } from 'node:crypto'
import type { Clock } from '../../clock.ts'
import { fieldError } from '../../errors.ts'
import { ensureConnectedAccount, type PayoutAccountDeps } from './payout-account.ts'
import { recordSsnLast4Provided } from './profile-repository.ts'

/**
 * A US seller's tax identifiers (payout requirements `ssn_last_4` and
 * `id_number`), handed straight to the payment provider: Pactum keeps only
 * when the last four were given (the profile's `ssn_last_4_provided`).
 */
export interface TaxIdentifiers {
  ssn_last_4?: string | undefined
  id_number?: string | undefined
}

export function hasTaxIdentifiers(body: TaxIdentifiers): boolean {
  return body.ssn_last_4 !== undefined || body.id_number !== undefined
}

/** Checked before anything of the request is saved: the identifiers are for US sellers only. */
export function requireTaxIdentifiersAllowed(body: TaxIdentifiers, countryCode: string): void {
  if (countryCode === 'us') return
  const field = body.ssn_last_4 !== undefined ? 'body.ssn_last_4' : 'body.id_number'
  throw fieldError(field, 'Only asked of sellers in the United States')
}

export async function submitTaxIdentifiers(
  deps: PayoutAccountDeps & { clock: Clock },
  userId: string,
  body: TaxIdentifiers,
): Promise<void> {
  if (!hasTaxIdentifiers(body)) return
  const account = await ensureConnectedAccount(deps, userId)
  // A fresh key per submission: one derived from the digits would let anyone
  // who reads the key (or a hash of it) try the 10,000 possible last fours.
  await deps.connectedAccounts.setTaxIdentifiers({
    accountId: account.id,
    ...(body.ssn_last_4 !== undefined ? { ssnLast4: body.ssn_last_4 } : {}),
    ...(body.id_number !== undefined ? { idNumber: body.id_number } : {}),
    idempotencyKey: `tax-identifiers:${randomUUID()}`,
  })
  if (body.ssn_last_4 !== undefined) {
    const now = deps.clock.now()
    await recordSsnLast4Provided(deps.db, userId, now)
  }
}
