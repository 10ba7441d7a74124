/**
 * Ledger account names. Escrow is one account per transaction, so that a
 * terminal transaction's escrow can be checked to be exactly zero; party
 * accounts are per user.
 */
export const ledgerAccounts = {
  escrow: (transactionId: string) => `escrow:${transactionId}`,
  buyerFunding: (userId: string) => `buyer_funding:${userId}`,
  buyerRefund: (userId: string) => `buyer_refund:${userId}`,
  seller: (userId: string) => `seller:${userId}`,
  revenue: 'revenue',
  /** What a card dispute took back, per transaction as escrow, until it closes (docs/decisions/109). */
  disputed: (transactionId: string) => `disputed:${transactionId}`,
  /** The platform's losses to card disputes on money no longer held, less what was recovered from sellers. */
  chargebackLosses: 'chargeback_losses',
  /** The payment provider's dispute fees. */
  disputeFees: 'dispute_fees',
} as const

export const escrowPrefix = 'escrow:'
export const disputedPrefix = 'disputed:'
