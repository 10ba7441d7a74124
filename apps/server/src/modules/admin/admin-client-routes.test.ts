import { describe, expect, it } from 'vitest'
import { clientOfApiKey } from '../partner-clients/partner-api-key.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createSale } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()

async function start() {
  const clock = new TestClock(new Date('2026-11-24T09:00:00Z'))
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } })
  return { db: testApp.app.services.db, clock, call: apiCaller(testApp.app, tokens) }
}

const harbour = {
  name: 'Harbour Market',
  background_color: '#003049',
  text_color: '#fdf0d5',
  url: 'https://harbour.example/account',
  routes: ['/transactions', '/transactions/*'],
  mobile_navbar_hidden: true,
  show_seller_confirm_handover: false,
}

describe('POST /admin/clients', () => {
  it('adds a client that the public call and creates then know', async () => {
    const { call } = await start()
    const created = await call('admin', 'POST', '/api/v1/admin/clients', { client_id: 'harbour', ...harbour })
    expect(created).toMatchObject({
      status: 201,
      body: {
        client_id: 'harbour',
        ...harbour,
        transactions: 0,
        in_clients_file: false,
        api_key_issued_at: null,
        updated_at: '2026-11-24T09:00:00.000Z',
      },
    })
    expect((await call(null, 'GET', '/api/v1/clients/harbour')).body).toMatchObject({ name: 'Harbour Market', mobile_navbar_hidden: true })
    await createSale(call, {}, { clientId: 'harbour' })
    expect((await call('admin', 'GET', '/api/v1/admin/clients')).body).toContainEqual(
      expect.objectContaining({ client_id: 'harbour', transactions: 1 }),
    )
  })

  it('refuses a taken id, one of our own apps’ ids and bad settings, naming the field', async () => {
    const { call } = await start()
    expect(await call('admin', 'POST', '/api/v1/admin/clients', { client_id: 'demo-marketplace', ...harbour })).toMatchObject({
      status: 409,
      body: { code: 'client_exists', details: { field: 'body.client_id' } },
    })
    for (const reserved of ['pactum-app', 'pactum-landing']) {
      expect(await call('admin', 'POST', '/api/v1/admin/clients', { client_id: reserved, ...harbour })).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: { field: 'body.client_id' } },
      })
    }
    const bad = [
      [{ client_id: 'Harbour Market' }, 'body.client_id'],
      [{ background_color: 'navy' }, 'body.background_color'],
      [{ url: 'javascript:alert(1)' }, 'body.url'],
      [{ routes: ['transactions'] }, 'body.routes.0'],
      [{ name: '  ' }, 'body.name'],
    ] as const
    for (const [change, field] of bad) {
      const answer = await call('admin', 'POST', '/api/v1/admin/clients', { client_id: 'harbour', ...harbour, ...change })
      expect(answer.status, field).toBe(400)
      expect(answer.body.error, field).toContain(field)
    }
    expect((await call(null, 'GET', '/api/v1/clients/harbour')).status).toBe(404)
  })
})

describe('PUT /admin/clients/:client_id', () => {
  it('changes the look and rules, and answers 404 for an unknown client', async () => {
    const { call, clock } = await start()
    await call('admin', 'POST', '/api/v1/admin/clients', { client_id: 'harbour', ...harbour })
    await clock.moveBy(300)
    const changed = await call('admin', 'PUT', '/api/v1/admin/clients/harbour', { ...harbour, text_color: '#ffffff', routes: [] })
    expect(changed).toMatchObject({
      status: 200,
      body: { client_id: 'harbour', text_color: '#ffffff', routes: [], updated_at: '2026-11-24T09:05:00.000Z' },
    })
    expect((await call(null, 'GET', '/api/v1/clients/harbour')).body).toMatchObject({ text_color: '#ffffff', routes: [] })
    expect(await call('admin', 'PUT', '/api/v1/admin/clients/nobody', harbour)).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect(await call('admin', 'PUT', '/api/v1/admin/clients/harbour', { ...harbour, text_color: 'white' })).toMatchObject({ status: 400 })
  })
})

describe('partner API keys from the console', () => {
  it('issues a key shown once, replaces it on a second issue, and revokes it', async () => {
    const { call, db } = await start()
    await call('admin', 'POST', '/api/v1/admin/clients', { client_id: 'harbour', ...harbour })
    const first = await call('admin', 'POST', '/api/v1/admin/clients/harbour/api_key')
    expect(first).toMatchObject({
      status: 201,
      body: { api_key: expect.stringMatching(/^harbour\.[A-Za-z0-9_-]{43}$/), issued_at: '2026-11-24T09:00:00.000Z' },
    })
    expect(first.headers['cache-control']).toBe('no-store')
    expect(await clientOfApiKey(db, first.body.api_key)).toEqual({ id: 'harbour', name: 'Harbour Market' })

    // The list says a key exists, never what it is.
    const listed = await call('admin', 'GET', '/api/v1/admin/clients')
    expect(listed.body).toContainEqual(expect.objectContaining({ client_id: 'harbour', api_key_issued_at: '2026-11-24T09:00:00.000Z' }))
    expect(JSON.stringify(listed.body)).not.toContain(first.body.api_key.split('.')[1])

    const second = await call('admin', 'POST', '/api/v1/admin/clients/harbour/api_key')
    await expect(clientOfApiKey(db, first.body.api_key)).rejects.toMatchObject({ code: 'invalid_api_key' })
    expect(await clientOfApiKey(db, second.body.api_key)).toMatchObject({ id: 'harbour' })

    expect(await call('admin', 'DELETE', '/api/v1/admin/clients/harbour/api_key')).toMatchObject({ status: 204 })
    await expect(clientOfApiKey(db, second.body.api_key)).rejects.toMatchObject({ code: 'invalid_api_key' })
    // Revoking again changes nothing and is not an error.
    expect(await call('admin', 'DELETE', '/api/v1/admin/clients/harbour/api_key')).toMatchObject({ status: 204 })
    expect((await call('admin', 'GET', '/api/v1/admin/clients')).body).toContainEqual(
      expect.objectContaining({ client_id: 'harbour', api_key_issued_at: null }),
    )

    expect(await call('admin', 'POST', '/api/v1/admin/clients/nobody/api_key')).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect(await call('admin', 'DELETE', '/api/v1/admin/clients/nobody/api_key')).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    })
  })
})

describe('GET /admin/client_changes', () => {
  it('records who changed which client, newest first, filtered and paged', async () => {
    const { call, clock } = await start()
    await call('admin', 'POST', '/api/v1/admin/clients', { client_id: 'harbour', ...harbour })
    await clock.moveBy(60)
    await call('admin', 'PUT', '/api/v1/admin/clients/harbour', { ...harbour, name: 'Harbour 2' })
    await call('admin', 'POST', '/api/v1/admin/clients/harbour/api_key')
    await call('admin', 'DELETE', '/api/v1/admin/clients/harbour/api_key')
    await call('admin', 'DELETE', '/api/v1/admin/clients/harbour/api_key')

    const changes = await call('admin', 'GET', '/api/v1/admin/client_changes?client_id=harbour')
    expect(changes.status).toBe(200)
    expect(changes.body.map((change: { action: string }) => change.action)).toEqual([
      'api_key_revoked',
      'api_key_issued',
      'updated',
      'created',
    ])
    expect(changes.body[2]).toMatchObject({
      actor_kind: 'admin',
      actor_email: 'admin@example.com',
      settings: { ...harbour, name: 'Harbour 2' },
      created_at: '2026-11-24T09:01:00.000Z',
    })
    expect(changes.body[0].settings).toBeNull()

    // Start-up's seeding of the demo client is there too, by the configuration.
    const all = await call('admin', 'GET', '/api/v1/admin/client_changes')
    expect(all.body).toContainEqual(
      expect.objectContaining({
        client_id: 'demo-marketplace',
        action: 'seeded_from_file',
        actor_kind: 'configuration',
        actor_email: null,
      }),
    )

    const firstPage = await call('admin', 'GET', '/api/v1/admin/client_changes?client_id=harbour&limit=3')
    const rest = await call('admin', 'GET', `/api/v1/admin/client_changes?client_id=harbour&after_id=${firstPage.body.at(-1).id}`)
    expect(rest.body.map((change: { action: string }) => change.action)).toEqual(['created'])
  })
})
