import type { NewF2fTransaction } from '../f2f-state.ts'
import type { NewOnlineTransaction } from '../online-state.ts'

// What creating a sale takes, as the tests offer it: the seller `u_creator`
// with join code ABCDEFGH, in eur, by card, priced with fees.ts (version 1).

/** An online sale of 10000 and the card charge on it, 340 (fees.ts worked example). */
export function onlineOffer(overrides: Partial<NewOnlineTransaction> = {}): NewOnlineTransaction {
  return {
    creatorRole: 'seller',
    creatorId: 'u_creator',
    joinCode: 'ABCDEFGH',
    price: 10_000,
    currency: 'eur',
    charge: 340,
    chargeCalculatorVersion: 1,
    paymentMethod: 'card',
    ...overrides,
  }
}

/** A face-to-face sale with a deposit of 5000 and the card charge on it, 190 (3 % + 40). */
export function f2fOffer(overrides: Partial<NewF2fTransaction> = {}): NewF2fTransaction {
  return {
    creatorRole: 'seller',
    creatorId: 'u_creator',
    joinCode: 'ABCDEFGH',
    currency: 'eur',
    depositPrice: 5_000,
    depositCharge: 190,
    chargeCalculatorVersion: 1,
    paymentMethod: 'card',
    ...overrides,
  }
}
