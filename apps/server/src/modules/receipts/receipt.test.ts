import { extractText } from 'unpdf'
import { describe, expect, it } from 'vitest'
import type { Mailer, MailMessage } from '../../adapters/mailer/port.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { joinedF2fSale, payF2fByCard } from '../../testing/f2f-sale-steps.ts'
import { complainAfterDelivery, confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { sendNotifications } from '../notifications/send-notification.ts'
import { findById } from '../transactions/transactions-repository.ts'
import { writtenMails } from '../../testing/written-mails.ts'
import { buildReceipt } from './receipt.ts'

const testApps = appPerTest()

async function start() {
  const clock = new TestClock(new Date('2026-11-23T10:00:00Z'))
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, stranger: {}, admin: { admin: true } })
  const call = apiCaller(testApp.app, tokens)
  const download = (who: keyof typeof tokens, url: string) =>
    testApp.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[who]}` } })
  return { app: testApp.app, dataDir: testApp.dataDir, clock, call, download }
}

/** A sale of 100.00 EUR paid by card, delivered, and released to the seller when the complaint period ended. */
async function releasedSale() {
  const started = await start()
  const { app, clock, call } = started
  const { id } = await joinedSale(call)
  const { intentId } = await payByCard(call, id)
  await track(call, id, { carrier: 'dhl', tracking_code: 'JD0009002' })
  await confirmDelivery(call, id)
  await clock.advance(app, 24 * 3600)
  expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('funds_released')
  const entries = await app.services.db.selectFrom('ledger_entries').select(['id', 'kind']).where('transaction_id', '=', id).execute()
  const entryOf = (kind: string) => entries.find((entry) => entry.kind === kind)?.id ?? ''
  return { ...started, id, intentId, holdId: entryOf('hold'), releaseId: entryOf('release') }
}

/** Text extraction may break a line anywhere: compare without whitespace. */
async function flatText(pdf: Buffer) {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true })
  return text.replace(/\s+/g, '')
}

describe('the receipt’s content', () => {
  it('lists the payment received and the release from the ledger, with the parties and the fees', async () => {
    const { app, clock, id, intentId, holdId, releaseId } = await releasedSale()
    const { db } = app.services
    const row = await findById(db, id)
    const receipt = await buildReceipt(db, row, clock.now())

    expect(receipt.transaction).toMatchObject({
      id,
      kind: 'online',
      status: 'funds_released',
      currency: 'eur',
      price: 10_000,
      buyerFee: row.charge,
      sellerFee: row.charge_seller,
      buyer: 'buyer@example.com',
      seller: 'seller@example.com',
    })
    expect(row.charge).toBeGreaterThan(0)
    expect(receipt.payments).toEqual([
      {
        part: 'payment',
        at: row.paid,
        amount: 10_000 + row.charge,
        fee: row.charge,
        paymentMethod: row.payment_method,
        paymentReference: intentId,
        ledgerEntryId: holdId,
      },
    ])
    expect(receipt.movements).toEqual([
      {
        kind: 'release',
        at: row.funds_released,
        toBuyer: 0,
        toSeller: row.amount_released,
        feesKept: 10_000 + row.charge - row.amount_released,
        ledgerEntryId: releaseId,
      },
    ])
  })

  it('lists an admin’s split with what went to the buyer, to the seller and to Pactum', async () => {
    const { app, clock, call } = await start()
    const { id } = await joinedSale(call)
    await complainAfterDelivery(call, id)
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/escalate`)).status).toBe(200)
    const decided = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/decide`, {
      refund_to_buyer: 5_000,
      release_to_seller: 5_000,
      reason: 'Half each',
    })
    expect(decided.status).toBe(200)
    const { db } = app.services
    const row = await findById(db, id)
    const receipt = await buildReceipt(db, row, clock.now())
    const split = await db.selectFrom('ledger_entries').select('id').where('transaction_id', '=', id).where('kind', '=', 'split').execute()
    expect(receipt.payments).toHaveLength(1)
    // 50.00 back with half of the 3.40 card fee, as the case file says.
    expect(receipt.movements).toEqual([
      expect.objectContaining({ kind: 'split', toBuyer: 5_170, toSeller: row.amount_released, ledgerEntryId: split[0]?.id }),
    ])
    const movement = receipt.movements[0]
    expect((movement?.toBuyer ?? 0) + (movement?.toSeller ?? 0) + (movement?.feesKept ?? 0)).toBe(receipt.payments[0]?.amount)
  })

  it('refuses before the buyer has paid, with the code an early action gets', async () => {
    const { app, clock, call } = await start()
    const { id } = await joinedSale(call)
    const { db } = app.services
    await expect(buildReceipt(db, await findById(db, id), clock.now())).rejects.toMatchObject({ code: 'not_paid' })
  })
})

describe('GET …/receipt', () => {
  it('gives either party a PDF with the payment, the release, their ledger entries and the legal lines', async () => {
    const { id, intentId, holdId, releaseId, download } = await releasedSale()
    for (const party of ['buyer', 'seller'] as const) {
      const answer = await download(party, `/api/v1/transactions/${id}/receipt?lang=en_gb`)
      expect(answer.statusCode).toBe(200)
      expect(answer.headers['content-type']).toBe('application/pdf')
      expect(answer.headers['content-disposition']).toBe(`attachment; filename="pactum-receipt-${id.slice(-12)}.pdf"`)
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
      expect(answer.headers['cache-control']).toBe('private, no-store')
      const flat = await flatText(answer.rawPayload)
      for (const expected of [
        'Pactum receipt',
        id,
        intentId,
        holdId,
        releaseId,
        'Released to the seller',
        '€103.40',
        'buyer@example.com',
        'seller@example.com',
        'This receipt is not a tax invoice.',
      ]) {
        expect(flat).toContain(expected.replace(/\s+/g, ''))
      }
    }
  })

  it('is in the language asked for, and lets an admin download any', async () => {
    const { id, releaseId, download } = await releasedSale()
    const answer = await download('admin', `/api/v1/admin/transactions/${id}/receipt?lang=pl_pl`)
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="pactum-receipt-${id.slice(-12)}.pdf"`)
    const flat = await flatText(answer.rawPayload)
    expect(flat).toContain('PotwierdzeniepłatnościPactum')
    expect(flat).toContain('Wypłaconosprzedającemu')
    expect(flat).toContain('TopotwierdzenieniejestfakturąVAT.')
    expect(flat).toContain(releaseId)
  })

  it('answers 409 not_paid before the payment, 404 to a stranger and on the other kind’s path', async () => {
    const { call, download } = await start()
    const { id } = await joinedSale(call)
    const early = await download('buyer', `/api/v1/transactions/${id}/receipt`)
    expect(early.statusCode).toBe(409)
    expect(early.json()).toMatchObject({ code: 'not_paid' })
    expect((await download('admin', `/api/v1/admin/transactions/${id}/receipt`)).statusCode).toBe(409)
    await payByCard(call, id)
    expect((await download('stranger', `/api/v1/transactions/${id}/receipt`)).statusCode).toBe(404)
    expect((await download('buyer', `/api/v1/p2p/transactions/${id}/receipt`)).statusCode).toBe(404)
    expect((await download('buyer', `/api/v1/transactions/${id}/receipt?lang=xx_xx`)).statusCode).toBe(400)
    const paid = await download('seller', `/api/v1/transactions/${id}/receipt`)
    expect(paid.statusCode).toBe(200)
    expect(await flatText(paid.rawPayload)).toContain('Nothinghasleftescrowyet.')
  })

  it('gives a face-to-face receipt once the deposit is paid, naming the deposit’s payment', async () => {
    const { call, download } = await start()
    const { id } = await joinedF2fSale(call)
    expect((await download('seller', `/api/v1/p2p/transactions/${id}/receipt`)).json()).toMatchObject({ code: 'not_paid' })
    const { intentId } = await payF2fByCard(call, id, 'deposit')
    const answer = await download('buyer', `/api/v1/p2p/transactions/${id}/receipt?lang=sv_se`)
    expect(answer.statusCode).toBe(200)
    const flat = await flatText(answer.rawPayload)
    expect(flat).toContain('Pactum-kvitto')
    expect(flat).toContain('Handpenning')
    expect(flat).toContain(intentId)
    expect((await download('buyer', `/api/v1/transactions/${id}/receipt`)).statusCode).toBe(404)
  })
})

describe('the receipt attached to the release e-mail', () => {
  it('goes with the e-mail that says the money was released, to each party in their language, and with no other', async () => {
    const { app, dataDir, clock, call } = await start()
    expect((await call('seller', 'POST', '/api/v1/me/notification_language', { language_code: 'fi_fi' })).status).toBe(200)
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0009002' })
    await confirmDelivery(call, id)
    await clock.advance(app, 24 * 3600)
    await app.services.jobs.runDue()
    const releaseId = (
      await app.services.db
        .selectFrom('ledger_entries')
        .select('id')
        .where('transaction_id', '=', id)
        .where('kind', '=', 'release')
        .executeTakeFirstOrThrow()
    ).id
    const mails = await writtenMails(dataDir)
    const released = mails.filter((mail) => mail.attachments.length > 0)
    expect(released.map((mail) => [mail.to, mail.subject]).sort()).toEqual([
      ['buyer@example.com', '“A blue bicycle” is complete'],
      ['seller@example.com', expect.stringMatching(/^Rahat vapautettu/)],
    ])
    for (const mail of released) {
      const [pdf] = mail.attachments
      expect(pdf).toMatchObject({ contentType: 'application/pdf', filename: `pactum-receipt-${id.slice(-12)}.pdf` })
      const text = await flatText(pdf!.content)
      expect(text).toContain(id)
      expect(text).toContain(releaseId)
      expect(mail.text).toContain(mail.to === 'seller@example.com' ? 'Kuitti on tämän sähköpostin liitteenä' : 'Your receipt is attached')
      expect(mail.html).toContain('Pactum')
    }
    expect(await flatText(released.find((mail) => mail.to === 'seller@example.com')!.attachments[0]!.content)).toContain('Pactum-kuitti')
    // The payment's and the delivery's e-mails went without.
    expect(mails.length).toBeGreaterThan(released.length)
  })

  it('is made once for both parties when their e-mails go out together in one language', async () => {
    const { app, id } = await releasedSale()
    const { db, config } = app.services
    const sent: MailMessage[] = []
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail)
        return { id: `mail-${sent.length}` }
      },
    }
    const deps = {
      db,
      mailer,
      clock: { now: () => new Date('2026-11-25T10:00:00Z') },
      publicUrl: config.publicUrl,
      supportEmail: config.supportEmail,
    }
    await sendNotifications(deps, [
      { transactionId: id, template: 'funds_released', to: 'buyer', key: `again:${id}:buyer` },
      { transactionId: id, template: 'funds_released', to: 'seller', key: `again:${id}:seller` },
    ])
    const [buyers, sellers] = sent.map((mail) => mail.attachments?.[0]?.content)
    expect(buyers).toBeInstanceOf(Buffer)
    // The very same bytes, not a second rendering of them (a PDF is most of a release e-mail's time).
    expect(sellers).toBe(buyers)
  })
})
