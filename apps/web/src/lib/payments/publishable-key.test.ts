import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { fetchPublishableKey, paymentFormFor, providerOfKey } from './publishable-key.ts'

describe('fetchPublishableKey', () => {
  it('asks for the transaction’s key first', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1/stripe_publishable_key': { publishable_key: 'pk_sandbox_for_tx' },
      'GET /me/personal/stripe_publishable_key': { publishable_key: 'pk_sandbox_mine' },
    })
    expect(await fetchPublishableKey(api, 'tx-1')).toBe('pk_sandbox_for_tx')
    expect(api.request.mock.calls.map(([path]) => path)).toEqual(['/transactions/tx-1/stripe_publishable_key'])
  })

  it('falls back to the user’s key when the transaction’s call fails', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1/stripe_publishable_key': () => {
        throw apiError(503, 'service_unavailable')
      },
      'GET /me/personal/stripe_publishable_key': { publishable_key: 'pk_sandbox_mine' },
    })
    expect(await fetchPublishableKey(api, 'tx-1')).toBe('pk_sandbox_mine')
    expect(api.request.mock.calls.map(([path]) => path)).toEqual([
      '/transactions/tx-1/stripe_publishable_key',
      '/me/personal/stripe_publishable_key',
    ])
  })

  it('reports the fallback’s failure when both fail', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1/stripe_publishable_key': () => {
        throw apiError(404, 'not_found')
      },
      'GET /me/personal/stripe_publishable_key': () => {
        throw apiError(500, 'internal_error')
      },
    })
    await expect(fetchPublishableKey(api, 'tx-1')).rejects.toMatchObject({ code: 'internal_error' })
  })

  it('does not fall back for a checkout closed mid-call', async () => {
    const controller = new AbortController()
    const api = fakeApiClient({
      'GET /transactions/tx-1/stripe_publishable_key': () => {
        controller.abort()
        throw new DOMException('aborted', 'AbortError')
      },
      'GET /me/personal/stripe_publishable_key': { publishable_key: 'pk_sandbox_mine' },
    })
    await expect(fetchPublishableKey(api, 'tx-1', controller.signal)).rejects.toMatchObject({ name: 'AbortError' })
    expect(api.request).toHaveBeenCalledTimes(1)
  })
})

describe('the key decides the form', () => {
  it('tells Stripe’s keys from the sandbox’s', () => {
    expect(providerOfKey('pk_sandbox_pactum')).toBe('sandbox')
    expect(providerOfKey('pk_anything_else')).toBe('sandbox')
    expect(providerOfKey('pk_test_51Habc')).toBe('stripe')
    expect(providerOfKey('pk_live_51Habc')).toBe('stripe')
  })

  it('shows Stripe.js’s form for a real Stripe key, test or live, and the sandbox form for any other key', () => {
    expect(paymentFormFor('pk_sandbox_pactum')).toBe('sandbox')
    expect(paymentFormFor('pk_test_51Habc')).toBe('stripe')
    expect(paymentFormFor('pk_live_51Habc')).toBe('stripe')
    expect(paymentFormFor('pk_testing_51Habc')).toBe('sandbox')
  })
})
