import type { CurrencyCode } from './currencies.ts'

/**
 * High-value transactions (DESIGN §2, spec §6 and §9). The spec gives the
 * thresholds "in minor units assumed"; we take them as minor units, so EUR
 * 500000 is €5,000.00.
 */
export const highValueThresholds: Readonly<Partial<Record<CurrencyCode, number>>> = {
  eur: 500_000,
  gbp: 500_000,
  usd: 500_000,
  aud: 500_000,
  pln: 2_000_000,
  myr: 2_000_000,
  aed: 2_000_000,
  sek: 5_000_000,
}

/**
 * At or above the threshold. A currency the spec gives no threshold for is
 * never high value: those currencies are open to company users only, and
 * inventing a threshold would block their payments on identity checks the
 * product never asked for.
 */
export function isHighValue(price: number, currency: CurrencyCode): boolean {
  const threshold = highValueThresholds[currency]
  return threshold !== undefined && price >= threshold
}

/** The product's own clients (spec §6 "{product}-app and {product}-landing"). */
export const verifyingClientIds = ['pactum-app', 'pactum-landing'] as const

/**
 * Whether a high-value transaction created under this client needs both parties
 * identity-verified before the buyer may pay. Partner clients do their own
 * checks; a transaction with no client is not one of ours to gate.
 */
export function highValueRequiresVerification(clientId: string | null | undefined): boolean {
  return clientId != null && (verifyingClientIds as readonly string[]).includes(clientId)
}
