import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../config.ts'
import { createTestDatabase } from '../../testing/test-database.ts'
import { buildApp } from '../../http/app.ts'
import { findPartnerClient, listPartnerClients, seedPartnerClients, updatePartnerClient } from './partner-clients.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp | undefined
const folders: string[] = []
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })))
})

async function clientsFile(content: unknown): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'pactum-clients-'))
  folders.push(folder)
  const file = path.join(folder, 'clients.json')
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

const harbour = {
  name: 'Harbour Market',
  backgroundColor: '#003049',
  textColor: '#fdf0d5',
  url: 'https://harbour.example/account',
  routes: ['/transactions', '/transactions/*'],
  mobileNavbarHidden: false,
  showSellerConfirmHandover: true,
}

/** A file entry in the admin API's shape. */
function asBody(settings: typeof harbour) {
  return {
    name: settings.name,
    background_color: settings.backgroundColor,
    text_color: settings.textColor,
    url: settings.url,
    routes: settings.routes,
    mobile_navbar_hidden: settings.mobileNavbarHidden,
    show_seller_confirm_handover: settings.showSellerConfirmHandover,
  }
}

describe('GET /api/v1/clients/:client_id', () => {
  it('answers the demo client of the repository’s clients file without sign-in', async () => {
    testApp = await createTestApp()
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/clients/demo-marketplace' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      client_id: 'demo-marketplace',
      name: 'Demo Marketplace',
      background_color: '#1d3557',
      text_color: '#ffffff',
      url: 'https://marketplace.example/',
      routes: expect.arrayContaining(['/transactions', '/transactions/*']),
      mobile_navbar_hidden: true,
      show_seller_confirm_handover: false,
    })
  })

  it('answers 404 not_found for an unknown client', async () => {
    testApp = await createTestApp()
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/clients/no-such-market' })
    expect(response.statusCode).toBe(404)
    expect(response.json().code).toBe('not_found')
  })

  it('serves the clients of CLIENTS_FILE, defaults filled in', async () => {
    const file = await clientsFile({
      harbour: { name: 'Harbour', backgroundColor: '#fff', textColor: '#000', url: 'https://harbour.example/' },
    })
    testApp = await createTestApp({ env: { CLIENTS_FILE: file } })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/clients/harbour' })
    expect(response.json()).toMatchObject({
      client_id: 'harbour',
      routes: [],
      mobile_navbar_hidden: false,
      show_seller_confirm_handover: true,
    })
    expect((await testApp.app.inject({ method: 'GET', url: '/api/v1/clients/demo-marketplace' })).statusCode).toBe(404)
  })

  it('is in the OpenAPI document', async () => {
    testApp = await createTestApp()
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json()
    expect(document.paths['/api/v1/clients/{client_id}'].get.responses).toHaveProperty('200')
  })
})

describe('seeding partner clients from the file', () => {
  it('upserts: a second start-up with a changed file updates the row and keeps one', async () => {
    const file = await clientsFile({ harbour })
    testApp = await createTestApp({ env: { CLIENTS_FILE: file } })
    const { db } = testApp.database
    await writeFile(file, JSON.stringify({ harbour: { ...harbour, name: 'Harbour Market 2', routes: [] } }))
    expect(await seedPartnerClients(db, file, new Date())).toEqual(['harbour'])
    expect(await seedPartnerClients(db, file, new Date())).toEqual(['harbour'])
    const rows = await db.selectFrom('clients').select(['id', 'name', 'routes', 'text_color']).where('id', '=', 'harbour').execute()
    expect(rows).toEqual([{ id: 'harbour', name: 'Harbour Market 2', routes: [], text_color: '#fdf0d5' }])
  })

  it('refuses a bad file naming the client and the field', async () => {
    testApp = await createTestApp()
    const { db } = testApp.database
    const badColour = await clientsFile({ harbour: { ...harbour, backgroundColor: 'navy' } })
    const error = await seedPartnerClients(db, badColour, new Date()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).message).toContain(`${badColour}: harbour.backgroundColor: a hex colour`)

    const unknownField = await clientsFile({ harbour: { ...harbour, colour: '#fff' } })
    expect(((await seedPartnerClients(db, unknownField, new Date()).catch((caught: unknown) => caught)) as Error).message).toMatch(
      /harbour: Unrecognized key.*colour/,
    )
    const notJson = await clientsFile('{ "harbour": ')
    expect(((await seedPartnerClients(db, notJson, new Date()).catch((caught: unknown) => caught)) as Error).message).toContain(
      'not valid JSON',
    )
    const missing = path.join(tmpdir(), 'pactum-no-such-clients.json')
    expect(((await seedPartnerClients(db, missing, new Date()).catch((caught: unknown) => caught)) as Error).message).toContain(
      `CLIENTS_FILE: cannot read ${missing} (ENOENT)`,
    )
    // Nothing half-written.
    expect(await db.selectFrom('clients').select('id').where('id', '=', 'harbour').execute()).toEqual([])
  })

  it('keeps a console edit across restarts until the file changes that client', async () => {
    const file = await clientsFile({ harbour, 'demo-marketplace': { ...harbour, name: 'Demo' } })
    testApp = await createTestApp({ env: { CLIENTS_FILE: file } })
    const { db } = testApp.database
    expect((await listPartnerClients(db)).map((client) => client.client_id)).toEqual(['demo-marketplace', 'harbour'])
    const edited = { ...asBody(harbour), text_color: '#ffffff', mobile_navbar_hidden: true }
    await updatePartnerClient(db, 'harbour', edited, { kind: 'operator' }, new Date())
    expect((await testApp.app.inject({ method: 'GET', url: '/api/v1/clients/harbour' })).json()).toMatchObject({ text_color: '#ffffff' })
    await expect(updatePartnerClient(db, 'nobody', edited, { kind: 'operator' }, new Date())).rejects.toMatchObject({ code: 'not_found' })

    // A restart with the same file keeps the edit, and records nothing.
    await seedPartnerClients(db, file, new Date())
    expect(await findPartnerClient(db, 'harbour')).toMatchObject({ text_color: '#ffffff', mobile_navbar_hidden: true })
    const actions = async () =>
      (await db.selectFrom('client_changes').select('action').where('client_id', '=', 'harbour').orderBy('id').execute()).map(
        (row) => row.action,
      )
    expect(await actions()).toEqual(['seeded_from_file', 'updated'])

    // The operator changes harbour's entry: the file wins for that client.
    await writeFile(file, JSON.stringify({ harbour: { ...harbour, name: 'Harbour 3' }, 'demo-marketplace': { ...harbour, name: 'Demo' } }))
    await seedPartnerClients(db, file, new Date())
    expect(await findPartnerClient(db, 'harbour')).toMatchObject({
      name: 'Harbour 3',
      text_color: harbour.textColor,
      mobile_navbar_hidden: false,
    })
    expect(await actions()).toEqual(['seeded_from_file', 'updated', 'seeded_from_file'])
  })

  it('stops the app from starting with a bad CLIENTS_FILE', async () => {
    const file = await clientsFile({ harbour: { ...harbour, url: 'not a url' } })
    const folder = await mkdtemp(path.join(tmpdir(), 'pactum-test-'))
    folders.push(folder)
    const database = await createTestDatabase()
    try {
      const config = loadConfig({ DATA_DIR: folder, LOG_LEVEL: 'silent', CLIENTS_FILE: file })
      await expect(buildApp({ config, database })).rejects.toThrow(/harbour\.url/)
    } finally {
      await database.close()
    }
  })
})

describe('transactions created under a client', () => {
  it('record the client, and the demo client’s handover rule applies to face-to-face sales', async () => {
    testApp = await createTestApp()
    const token = await testApp.tokenFor('seller@example.com')
    const headers = { authorization: `Bearer ${token}` }
    await testApp.app.inject({ method: 'POST', url: '/api/v1/me/personal/set_active_country', headers, payload: { country_code: 'ie' } })
    const quote = (
      await testApp.app.inject({ method: 'GET', url: '/api/v1/p2p/charge?price=5000&currency=eur&payment_method=card' })
    ).json()
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/p2p/me/transactions?client_id=demo-marketplace',
      headers,
      payload: {
        role: 'seller',
        description: 'Bike',
        deposit_price: 5_000,
        currency: 'eur',
        deposit_charge: quote.charge,
        charge_calculator_version: quote.charge_calculator_version,
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json()).toMatchObject({ show_seller_confirm_handover: false })
    const row = await testApp.database.db
      .selectFrom('transactions')
      .select('client_id')
      .where('id', '=', created.json().id)
      .executeTakeFirstOrThrow()
    expect(row.client_id).toBe('demo-marketplace')
  })
})

describe('a client’s contact address (issue 35: where Pactum writes about the integration)', () => {
  it('is set by an admin or the clients file, kept when a change leaves it out, and never public', async () => {
    const file = await clientsFile({ harbour: { ...harbour, contactEmail: 'dev@harbour.example' } })
    testApp = await createTestApp({ env: { CLIENTS_FILE: file } })
    const headers = { authorization: `Bearer ${await testApp.tokenFor('admin@example.com', { admin: true })}` }
    const adminView = async (id: string) =>
      (await testApp!.app.inject({ method: 'GET', url: '/api/v1/admin/clients', headers }))
        .json<Array<{ client_id: string }>>()
        .find((client) => client.client_id === id)
    expect(await adminView('harbour')).toMatchObject({ contact_email: 'dev@harbour.example' })

    const put = (payload: object) => testApp!.app.inject({ method: 'PUT', url: '/api/v1/admin/clients/harbour', headers, payload })
    expect((await put({ ...asBody(harbour), name: 'Harbour Two' })).statusCode).toBe(200)
    expect(await adminView('harbour')).toMatchObject({ name: 'Harbour Two', contact_email: 'dev@harbour.example' })
    expect((await put({ ...asBody(harbour), contact_email: 'ops@harbour.example' })).statusCode).toBe(200)
    expect(await adminView('harbour')).toMatchObject({ contact_email: 'ops@harbour.example' })
    const refused = await put({ ...asBody(harbour), contact_email: 'not an address' })
    expect(refused.statusCode).toBe(400)
    expect(JSON.stringify(refused.json().details)).toContain('body.contact_email')
    expect((await put({ ...asBody(harbour), contact_email: null })).statusCode).toBe(200)
    expect(await adminView('harbour')).toMatchObject({ contact_email: null })

    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/admin/clients',
      headers,
      payload: { ...asBody(harbour), client_id: 'quay', contact_email: 'dev@quay.example' },
    })
    expect(created.json()).toMatchObject({ client_id: 'quay', contact_email: 'dev@quay.example' })
    const publicView = await testApp.app.inject({ method: 'GET', url: '/api/v1/clients/quay' })
    expect(publicView.body).not.toContain('quay.example')
    expect(publicView.json()).not.toHaveProperty('contact_email')
  })
})
