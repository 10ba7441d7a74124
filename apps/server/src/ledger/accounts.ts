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
} as const

export const escrowPrefix = 'escrow:'
