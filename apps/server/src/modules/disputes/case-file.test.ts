import { extractText } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { multipartBody } from '../../testing/identity-upload.ts'
import { confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { findById } from '../transactions/transactions-repository.ts'
import { buildCaseFile } from './case-file.ts'

const testApps = appPerTest()
const receipt = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1')
const polish = 'Zażółć gęślą jaźń'
const decisionReason = 'Photos show a crack that the listing did not mention'

/** A sale of 100.00 EUR delivered, then complained about; the parties' and an admin's calls through the real API. */
async function complainedSale(options: { complain: boolean } = { complain: true }) {
  const clock = new TestClock(new Date('2026-11-23T10:00:00Z'))
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, stranger: {}, admin: { admin: true } })
  const call = apiCaller(testApp.app, tokens)
  const { id } = await joinedSale(call)
  await payByCard(call, id)
  await track(call, id, { carrier: 'dhl', tracking_code: 'JD0009001' })
  await confirmDelivery(call, id)
  if (options.complain) {
    const complained = await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, {
      description: `The frame arrived cracked. ${polish}`,
      reason: 'damaged',
    })
    expect(complained.status).toBe(200)
  }
  const download = (who: keyof typeof tokens, url: string) =>
    testApp.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[who]}` } })
  return { app: testApp.app, clock, call, id, tokens, download }
}

/** The complaint, then a message with a receipt attached, an offer declined, and the admin's split decision. */
async function decidedCase() {
  const sale = await complainedSale()
  const { app, clock, call, id, tokens } = sale
  const { payload, contentType } = await multipartBody([
    ['text', `The receipt, and a photo to follow. ${polish}`],
    ['file', { bytes: receipt, fileName: 'receipt.pdf' }],
  ])
  const posted = await app.inject({
    method: 'POST',
    url: `/api/v1/transactions/${id}/messages`,
    headers: { authorization: `Bearer ${tokens.buyer}`, 'content-type': contentType },
    payload,
  })
  expect(posted.statusCode).toBe(201)
  const sha256 = (posted.json() as { attachment: { sha256: string } }).attachment.sha256
  await clock.advance(app, 60)
  const offer = await call('seller', 'POST', `/api/v1/transactions/${id}/settlement_offers`, {
    refund_to_buyer: 2_000,
    release_to_seller: 8_000,
    note: 'A fifth back for the frame',
  })
  expect(offer.status).toBe(200)
  const offerId = ((await call('buyer', 'GET', `/api/v1/transactions/${id}/case`)).body as { offers: { id: string }[] }).offers[0]?.id
  expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/settlement_offers/${offerId}/decline`)).status).toBe(200)
  expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/escalate`)).status).toBe(200)
  const decided = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/decide`, {
    refund_to_buyer: 5_000,
    release_to_seller: 5_000,
    reason: decisionReason,
  })
  expect(decided.status).toBe(200)
  return { ...sale, sha256 }
}

describe('the case file’s content', () => {
  it('holds the transaction, the complaint, the offers, every history step, the messages, the evidence and the decision', async () => {
    const { app, clock, id, sha256 } = await decidedCase()
    const { db } = app.services
    const file = await buildCaseFile(db, await findById(db, id), 'admin', clock.now())

    expect(file.transaction).toMatchObject({
      id,
      kind: 'online',
      currency: 'eur',
      price: 10_000,
      buyer: 'buyer@example.com',
      seller: 'seller@example.com',
    })
    expect(file.case).toMatchObject({
      reason: 'damaged',
      description: `The frame arrived cracked. ${polish}`,
      opened_at: '2026-11-23T10:00:00.000Z',
      summary_due: '2026-11-26T10:00:00.000Z',
      final_answer_due: '2027-01-18T10:00:00.000Z',
    })
    expect(file.case.escalated_at).not.toBeNull()
    expect(file.offers).toEqual([
      expect.objectContaining({ by: 'seller', refund_to_buyer: 2_000, release_to_seller: 8_000, note: 'A fifth back for the frame' }),
    ])
    expect(file.offers[0]?.outcome).toBe('declined')

    const history = await db
      .selectFrom('transaction_events')
      .select(['event', 'reason'])
      .where('transaction_id', '=', id)
      .orderBy('id')
      .execute()
    expect(file.timeline.map((step) => step.event)).toEqual(history.map((step) => step.event))
    expect(file.timeline.map((step) => step.event)).toEqual(
      expect.arrayContaining(['complain', 'post_message', 'propose_settlement', 'escalate_case', 'decide']),
    )
    expect(file.timeline.find((step) => step.event === 'decide')).toMatchObject({ actorKind: 'admin', actorEmail: 'admin@example.com' })

    expect(file.messages).toEqual([
      expect.objectContaining({
        authorRole: 'buyer',
        text: `The receipt, and a photo to follow. ${polish}`,
        attachment: { name: 'receipt.pdf', contentType: 'application/pdf', size: receipt.length, sha256 },
      }),
    ])
    // Each piece of evidence carries the hash the history recorded when it arrived.
    expect(file.evidence).toEqual([
      expect.objectContaining({ name: 'receipt.pdf', sha256, inHistory: true, receivedAt: file.messages[0]?.at }),
    ])
    expect(history.filter((step) => step.reason?.startsWith('sha256:')).map((step) => step.reason)).toEqual(
      file.evidence.map((item) => `sha256:${item.sha256}`),
    )

    // 50.00 back with half of the 3.40 card fee; 50.00 to the seller.
    expect(file.outcome).toMatchObject({ kind: 'decided', amountRefunded: 5_170, amountReleased: 5_000, reason: decisionReason })
  })

  it('does not name who acted in a party’s copy, and says there is no decision while the case is open', async () => {
    const { app, clock, id } = await complainedSale()
    const { db } = app.services
    const file = await buildCaseFile(db, await findById(db, id), 'party', clock.now())
    expect(file.transaction).toMatchObject({ buyer: 'buyer@example.com', seller: 'seller@example.com' })
    expect(file.timeline.every((step) => step.actorEmail === null)).toBe(true)
    expect(file).toMatchObject({ offers: [], messages: [], evidence: [], outcome: null })
  })

  it('says the parties settled when an offer was accepted, with no admin reason', async () => {
    const { app, clock, call, id } = await complainedSale()
    await call('seller', 'POST', `/api/v1/transactions/${id}/settlement_offers`, { refund_to_buyer: 3_000, release_to_seller: 7_000 })
    const offerId = ((await call('buyer', 'GET', `/api/v1/transactions/${id}/case`)).body as { offers: { id: string }[] }).offers[0]?.id
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/settlement_offers/${offerId}/accept`)).status).toBe(200)
    const { db } = app.services
    const file = await buildCaseFile(db, await findById(db, id), 'party', clock.now())
    expect(file.outcome).toMatchObject({ kind: 'settled', amountRefunded: 3_102, amountReleased: 7_000, reason: null })
  })
})

describe('GET …/case_file', () => {
  it('downloads one PDF with the id, the evidence’s SHA-256, the decision’s reason and Polish text intact', async () => {
    const { id, sha256, download } = await decidedCase()
    const answer = await download('admin', `/api/v1/admin/transactions/${id}/case_file?lang=pl_pl`)
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toBe('application/pdf')
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="pactum-case-${id.slice(-12)}.pdf"`)
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(answer.headers['cache-control']).toBe('private, no-store')
    expect(answer.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')

    const { text, totalPages } = await extractText(new Uint8Array(answer.rawPayload), { mergePages: true })
    // Text extraction may break a line anywhere: compare without whitespace.
    const flat = text.replace(/\s+/g, '')
    for (const expected of [id, sha256, decisionReason, polish, 'Aktasprawy', 'Rozstrzygnięteprzezadministratora']) {
      expect(flat).toContain(expected.replace(/\s+/g, ''))
    }
    expect(flat).toContain(`Strona1z${totalPages}`.replace(/\s+/g, ''))
    expect(flat).toContain('buyer@example.com')
    expect(flat).toContain('admin@example.com')
  })

  it('lets both parties download their own case file, in the language they ask for, without naming the admin', async () => {
    const { id, download } = await decidedCase()
    for (const party of ['buyer', 'seller'] as const) {
      const answer = await download(party, `/api/v1/transactions/${id}/case_file?lang=sv_se`)
      expect(answer.statusCode).toBe(200)
      const { text } = await extractText(new Uint8Array(answer.rawPayload), { mergePages: true })
      const flat = text.replace(/\s+/g, '')
      expect(flat).toContain('Pactumärendeakt')
      expect(flat).toContain('Administratörens')
      expect(flat).not.toContain('admin@example.com')
    }
    // A face-to-face path does not reach an online sale; an unknown language is refused.
    expect((await download('buyer', `/api/v1/p2p/transactions/${id}/case_file`)).statusCode).toBe(404)
    expect((await download('buyer', `/api/v1/transactions/${id}/case_file?lang=xx_xx`)).statusCode).toBe(400)
  })

  it('is in the caller’s e-mail language when no language is asked for', async () => {
    const { id, call, download } = await decidedCase()
    expect((await call('seller', 'POST', '/api/v1/me/notification_language', { language_code: 'fi_fi' })).status).toBe(200)
    const answer = await download('seller', `/api/v1/transactions/${id}/case_file`)
    const { text } = await extractText(new Uint8Array(answer.rawPayload), { mergePages: true })
    expect(text.replace(/\s+/g, '')).toContain('Pactum-tapausasiakirja')
  })

  it('answers a stranger 404, a party before a complaint as GET …/case does, and an unknown id 404 to an admin', async () => {
    const before = await complainedSale({ complain: false })
    const caseAnswer = await before.download('buyer', `/api/v1/transactions/${before.id}/case`)
    const fileAnswer = await before.download('buyer', `/api/v1/transactions/${before.id}/case_file`)
    expect(fileAnswer.statusCode).toBe(caseAnswer.statusCode)
    expect(fileAnswer.json()).toEqual(caseAnswer.json())
    expect((await before.download('admin', `/api/v1/admin/transactions/${before.id}/case_file`)).statusCode).toBe(404)

    const { id, download } = await complainedSale()
    expect((await download('stranger', `/api/v1/transactions/${id}/case_file`)).statusCode).toBe(404)
    expect((await download('stranger', `/api/v1/admin/transactions/${id}/case_file`)).json()).toMatchObject({ code: 'not_admin' })
    const unknown = id.replace(/.{12}$/, '000000000000')
    expect((await download('admin', `/api/v1/admin/transactions/${unknown}/case_file`)).json()).toMatchObject({ code: 'not_found' })
  })

  it('flows a long conversation onto more pages, numbered in the footer', async () => {
    const { id, call, download } = await complainedSale()
    const long = `${'Długi opis szkody, słowo po słowie. '.repeat(100)}`.trim()
    for (let index = 0; index < 12; index += 1) {
      expect((await call(index % 2 ? 'seller' : 'buyer', 'POST', `/api/v1/transactions/${id}/messages`, { text: long })).status).toBe(201)
    }
    const answer = await download('buyer', `/api/v1/transactions/${id}/case_file?lang=en_gb`)
    const { text, totalPages } = await extractText(new Uint8Array(answer.rawPayload), { mergePages: true })
    expect(totalPages).toBeGreaterThan(3)
    expect(text.replace(/\s+/g, '')).toContain(`Page${totalPages}of${totalPages}`)
  })
})
