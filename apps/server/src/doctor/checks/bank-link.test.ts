import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlaidFake, startPlaidFake } from '../../testing/plaid-fake.ts'
import { checkBankLink } from './bank-link.ts'

describe('doctor: bank accounts', () => {
  let fake: PlaidFake
  beforeAll(async () => {
    fake = await startPlaidFake()
  })
  afterAll(async () => {
    await fake.close()
  })
  const plaid = (secret: string) => ({
    provider: 'plaid' as const,
    clientId: fake.clientId,
    secret,
    environment: 'sandbox' as const,
    apiUrl: fake.url,
  })

  it('reports the sandbox bank link without calling anything', async () => {
    expect(await checkBankLink({ provider: 'sandbox' }, { provider: 'sandbox' })).toMatchObject({ mode: 'sandbox', checks: [] })
  })

  it('reports Plaid as real when it issues a link token with the keys', async () => {
    const report = await checkBankLink(plaid(fake.secret), { provider: 'stripe' })
    expect(report).toMatchObject({ service: 'bank accounts', mode: 'real' })
    expect(report.checks.map((check) => check.outcome)).toEqual(['ok', 'ok', 'ok'])
    expect(fake.requests.at(-1)?.path).toBe('/link/token/create')
  })

  it('fails the API check with Plaid’s code, never the secret, when the keys are wrong; warns about sandbox payouts', async () => {
    const wrong = 'e'.repeat(30)
    const report = await checkBankLink(plaid(wrong), { provider: 'sandbox' })
    const answered = report.checks.find((check) => check.name === 'the API answers')
    expect(answered).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('INVALID_API_KEYS') })
    expect(JSON.stringify(report)).not.toContain(wrong)
    expect(report.checks.at(-1)?.outcome).toBe('warning')
  })
})
