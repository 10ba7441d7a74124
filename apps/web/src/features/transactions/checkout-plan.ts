import type { AmountPart } from '../../components/amount-summary.tsx'
import type { F2fTransaction } from '@pactum/contracts/f2f-transactions'
import type { PaymentMethod, Role, Transaction } from '@pactum/contracts/transactions'

/** The checkout's steps, in order: those a plan has (`checkoutStages`). */
export type Stage = 'address' | 'method' | 'pay'

/**
 * What one checkout pays (spec §4 checkout stages): `o-checkout` the online
 * price, `f-deposit` a face-to-face deposit, `f-remainder` the rest of the
 * total, paid with the deposit's method.
 */
export interface CheckoutPlan {
  readonly stage: 'o-checkout' | 'f-deposit' | 'f-remainder'
  readonly id: string
  readonly currency: string
  readonly role: Role | null
  /** What is being paid, before the fee. */
  readonly price: number
  /** The fee as the server last priced it. */
  readonly charge: number
  readonly paymentMethod: PaymentMethod | null
  /** `/transactions/{id}` or `/p2p/transactions/{id}`. */
  readonly basePath: string
  readonly payAction: 'pay' | 'pay_deposit' | 'pay_remainder'
  /** null where the method is fixed (the remainder is paid like the deposit). */
  readonly setMethodAction: 'set_payment_method' | 'set_deposit_payment_method' | null
  /** An online sale ships: the buyer gives the address first. */
  readonly collectsAddress: boolean
}

export function onlineCheckout(transaction: Transaction): CheckoutPlan {
  return {
    stage: 'o-checkout',
    id: transaction.id,
    currency: transaction.currency,
    role: transaction.role,
    price: transaction.price,
    charge: transaction.charge,
    paymentMethod: transaction.payment_method,
    basePath: `/transactions/${encodeURIComponent(transaction.id)}`,
    payAction: 'pay',
    setMethodAction: 'set_payment_method',
    collectsAddress: true,
  }
}

export function depositCheckout(transaction: F2fTransaction): CheckoutPlan {
  return {
    stage: 'f-deposit',
    id: transaction.id,
    currency: transaction.currency,
    role: transaction.role,
    price: transaction.deposit_pricing.price,
    charge: transaction.deposit_pricing.charge,
    paymentMethod: transaction.payment_method,
    basePath: `/p2p/transactions/${encodeURIComponent(transaction.id)}`,
    payAction: 'pay_deposit',
    setMethodAction: 'set_deposit_payment_method',
    collectsAddress: false,
  }
}

export function remainderCheckout(transaction: F2fTransaction): CheckoutPlan {
  const total = transaction.pricing?.price ?? transaction.deposit_pricing.price
  return {
    stage: 'f-remainder',
    id: transaction.id,
    currency: transaction.currency,
    role: transaction.role,
    price: total - transaction.deposit_pricing.price,
    charge: transaction.pricing?.charge ?? 0,
    paymentMethod: transaction.payment_method,
    basePath: `/p2p/transactions/${encodeURIComponent(transaction.id)}`,
    payAction: 'pay_remainder',
    setMethodAction: null,
    collectsAddress: false,
  }
}

/** The address where the goods are shipped, the method where it may still change, then the payment. */
export function checkoutStages(plan: CheckoutPlan): Stage[] {
  return [...(plan.collectsAddress ? ['address' as const] : []), ...(plan.setMethodAction ? ['method' as const] : []), 'pay']
}

/** What the checkout's amount is, as the summary names it. */
export function checkoutPart(plan: Pick<CheckoutPlan, 'stage'>): AmountPart {
  return plan.stage === 'f-deposit' ? 'deposit' : plan.stage === 'f-remainder' ? 'remainder' : 'price'
}
