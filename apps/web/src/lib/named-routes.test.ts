import { describe, expect, it } from 'vitest'
import { routeTo } from './named-routes.ts'

describe('named routes', () => {
  it('builds paths with encoded parameters and queries', () => {
    expect(routeTo('status', { id: 'tx 1' })).toBe('/transactions/tx%201')
    expect(routeTo('payoutBankDetails', {}, { edit: 'true' })).toBe('/profile/payment/bank-details?edit=true')
    expect(routeTo('joinGuestTransactionAsSeller', { claim_secret: 's3cret', type: 'online' })).toBe(
      '/join-guest-transaction-as-seller/s3cret/online',
    )
    expect(routeTo('faq')).toBe('/profile/help/faq')
  })
})
