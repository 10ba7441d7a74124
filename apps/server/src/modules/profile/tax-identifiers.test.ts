import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'

/*
 * Issue 11 #11: a US seller's payout requirements ask for the last four
 * digits of their SSN, and the full number when the provider cannot match
 * those (the sandbox: last four 1111; full number 111111111 is rejected).
 */

const checkSeconds = 5

const testApps = appPerTest()

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock, env: { SANDBOX_DOCUMENT_CHECK_SECONDS: String(checkSeconds) } })
  const current = testApp
  const signIn = async (email: string, country: string) => {
    const token = await current.tokenFor(email, { firstName: 'Ann', lastName: 'Lee' })
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const response = await current.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      })
      return { status: response.statusCode, body: response.body ? response.json() : null, raw: response.body }
    }
    expect((await call('POST', '/me/personal/set_active_country', { country_code: country })).status).toBe(204)
    expect((await call('POST', '/me/accept_tos_direct')).status).toBe(200)
    const other = async (): Promise<string[]> => (await call('GET', '/me/personal/payout_requirements')).body.requirements.other
    return { call, other }
  }
  /** Moves the clock past the provider's check and runs it. */
  const finishChecks = () => clock.advance(current.app, checkSeconds)
  return { app: current.app, db: current.database.db, signIn, finishChecks }
}

describe('US tax identifiers', () => {
  it('asks a US seller for the SSN’s last four, and not once they were given and matched', async () => {
    const { signIn, finishChecks } = await start()
    const seller = await signIn('ann@example.com', 'us')
    expect(await seller.other()).toEqual(expect.arrayContaining(['ssn_last_4', 'identity_document', 'credit_account']))
    expect((await seller.call('GET', '/me/personal')).body.ssn_last_4_provided).toBe(false)

    const saved = await seller.call('PUT', '/me/personal', { ssn_last_4: ' 4321 ' })
    expect(saved).toMatchObject({ status: 200, body: { ssn_last_4_provided: true } })
    // Being checked: no longer due, and not asked again once it matched.
    expect(await seller.other()).not.toContain('ssn_last_4')
    await finishChecks()
    expect(await seller.other()).not.toContain('ssn_last_4')
    expect(await seller.other()).not.toContain('id_number')
  })

  it('asks for the full number when the last four cannot be matched, and again when that is rejected', async () => {
    const { signIn, finishChecks } = await start()
    const seller = await signIn('ben@example.com', 'us')
    await seller.call('PUT', '/me/personal', { ssn_last_4: '1111' })
    await finishChecks()
    expect(await seller.other()).toContain('id_number')

    expect((await seller.call('PUT', '/me/personal', { id_number: '111-11-1111' })).status).toBe(200)
    expect(await seller.other()).not.toContain('id_number')
    await finishChecks()
    expect(await seller.other()).toContain('id_number')

    expect((await seller.call('PUT', '/me/personal', { id_number: '123 45 6789' })).status).toBe(200)
    await finishChecks()
    const other = await seller.other()
    expect(other).not.toContain('id_number')
    expect(other).not.toContain('ssn_last_4')
  })

  it('refuses them outside the US before saving anything, and names the bad field', async () => {
    const { signIn } = await start()
    const seller = await signIn('cat@example.com', 'gb')
    expect(await seller.other()).not.toContain('ssn_last_4')
    const refused = await seller.call('PUT', '/me/personal', { name: { first: 'Changed', last: 'Name' }, ssn_last_4: '1234' })
    expect(refused).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'body.ssn_last_4' } } })
    expect((await seller.call('GET', '/me/personal')).body.name).toEqual({ first: 'Ann', last: 'Lee' })

    const us = await signIn('dan@example.com', 'us')
    const malformed = await us.call('PUT', '/me/personal', { ssn_last_4: '12a4', id_number: '12345' })
    expect(malformed.status).toBe(400)
    expect(malformed.body.details.fields.map((field: { field: string }) => field.field)).toEqual(['body.ssn_last_4', 'body.id_number'])
    // The answer does not echo what was sent.
    expect(malformed.raw).not.toContain('12a4')
  })

  it('keeps no digits: neither Pactum nor the sandbox provider stores them or a hash of them', async () => {
    const { db, signIn, finishChecks } = await start()
    const seller = await signIn('eve@example.com', 'us')
    await seller.call('PUT', '/me/personal', { ssn_last_4: '1111' })
    await finishChecks()
    await seller.call('PUT', '/me/personal', { id_number: '987654320' })
    await finishChecks()
    const tables = ['users', 'sandbox_accounts', 'sandbox_idempotency_keys', 'sandbox_webhook_deliveries']
    for (const table of tables) {
      const { rows } = await sql<{
        dump: string
      }>`select coalesce(string_agg(t::text, ' '), '') as dump from ${sql.table(table)} t`.execute(db)
      expect(rows[0]?.dump ?? '', table).not.toContain('987654320')
    }
  })
})
