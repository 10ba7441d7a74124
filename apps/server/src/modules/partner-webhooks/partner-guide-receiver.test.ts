import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { joinedSale, payByCard } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { freePort } from '../../testing/crash-server.ts'
import { issueApiKey } from '../partner-clients/partner-api-key.ts'

/*
 * The partner guide's webhook receiver (docs/partners.md), run as written:
 * its code block is taken from the guide, given a free port instead of
 * 8080 and the installed `standardwebhooks`, and started as a partner would
 * start it. Real deliveries must pass its check, a forged one must not, so
 * the guide cannot drift from what Pactum sends.
 */

const testApps = appPerTest()
const guide = path.resolve(import.meta.dirname, '../../../../../docs/partners.md')
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function startGuideReceiver(secret: string) {
  const text = await readFile(guide, 'utf8')
  const block = [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.includes('standardwebhooks'))
  expect(block, 'the guide has a receiver example').toBeDefined()
  const port = await freePort()
  const code = (block as string)
    .replace("from 'standardwebhooks'", `from '${import.meta.resolve('standardwebhooks')}'`)
    .replace('.listen(8080)', `.listen(${port}, '127.0.0.1', () => console.log('listening'))`)
  const folder = await mkdtemp(path.join(tmpdir(), 'pactum-guide-'))
  const file = path.join(folder, 'receiver.mjs')
  await writeFile(file, code)
  const child: ChildProcess = spawn(process.execPath, [file], { env: { PATH: process.env.PATH ?? '', PACTUM_WEBHOOK_SECRET: secret } })
  const lines: string[] = []
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)))
  let errors = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk))
  cleanups.push(async () => {
    child.kill()
    await rm(folder, { recursive: true, force: true })
  })
  for (let wait = 0; !lines.includes('listening'); wait += 1) {
    if (wait > 200 || child.exitCode !== null) throw new Error(`the guide's receiver did not start: ${errors}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url: `http://127.0.0.1:${port}/pactum/webhooks`, lines }
}

describe("the partner guide's webhook receiver", () => {
  it('accepts what Pactum sends, in order, and refuses a forged delivery', async () => {
    const clock = new TestClock(new Date())
    const testApp = await testApps.open({ clock, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } })
    const { db } = testApp.app.services
    await db.insertInto('clients').values({ id: 'market', name: 'Market' }).execute()
    const apiKey = await issueApiKey(db, 'market', { kind: 'operator' }, clock.now())
    const headers = { 'x-pactum-api-key': apiKey, 'content-type': 'application/json' }

    // The secret is known once the endpoint is made, and the receiver needs it to start: made first, pointed at it after.
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/partner/webhook_endpoints',
      headers,
      payload: { url: 'https://market.example/pactum/webhooks' },
    })
    const receiver = await startGuideReceiver(created.json().secret)
    await db.updateTable('webhook_endpoints').set({ url: receiver.url }).where('id', '=', created.json().id).execute()

    const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} }))
    const { id } = await joinedSale(call, {}, { clientId: 'market' })
    await clock.advance(testApp.app, 1)
    await payByCard(call, id)
    await clock.advance(testApp.app, 1)
    const events = await db.selectFrom('partner_events').select(['id', 'type', 'sequence']).orderBy('position').execute()
    expect(events.map((event) => event.type)).toEqual(['transaction.created', 'transaction.joined', 'transaction.paid'])
    await expect
      .poll(() => receiver.lines.filter((line) => line !== 'listening'))
      .toEqual(events.map((event) => `${event.id} ${event.type} ${event.sequence}`))

    const forged = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      },
      body: JSON.stringify({ type: 'transaction.released', timestamp: new Date().toISOString(), data: {} }),
    })
    expect(forged.status).toBe(400)
    expect(receiver.lines.filter((line) => line.includes('evt_forged'))).toEqual([])
  })
})
