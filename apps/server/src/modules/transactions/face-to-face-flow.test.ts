import { describe, expect, it } from 'vitest'
import { createF2fSale, depositAccepted, joinedF2fSale, payF2fByCard, setTotal } from '../../testing/f2f-sale-steps.ts'
import { joinedSale } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { openWithSaleCast } from '../../testing/sale-cast.ts'
import { writtenMails } from '../../testing/written-mails.ts'

const testApps = appPerTest()

/** Two people, a stranger and an admin driving the real /p2p API in-process. */
async function start() {
  const { testApp, app, clock, call } = await openWithSaleCast(testApps, '2026-11-22T10:00:00Z')
  const db = app.services.db
  const ledger = async (id: string) =>
    db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
      .select(['e.kind', 'e.part', 'p.account', 'p.amount'])
      .where('e.transaction_id', '=', id)
      .orderBy('p.id')
      .execute()
  const outbox = (id: string) =>
    db
      .selectFrom('outbox')
      .select(['action', 'status', 'idempotency_key', 'payload'])
      .where('transaction_id', '=', id)
      .orderBy('created_at')
      .execute()
  return { app, clock, db, call, ledger, outbox, dataDir: testApp.dataDir }
}

// A 50.00 deposit by card costs 1.50 + 0.40; a total of 200.00 leaves 150.00, whose fee is 4.50 + 0.40.
const depositFee = 190
const remainderFee = 490

describe('a face-to-face sale end to end', () => {
  it('takes the deposit, the total and the handover, then pays the seller when the window closes', async () => {
    const { app, clock, call, ledger, outbox, dataDir } = await start()
    const { id, joinCode, created, quote } = await createF2fSale(call)
    expect(quote).toMatchObject({
      price: 5_000,
      charge: depositFee,
      charge_buyer_client: 0,
      charge_seller_client: 0,
      charge_calculator_version: 1,
    })
    expect(created).toMatchObject({
      type: 'f2f',
      status: 'created',
      role: 'seller',
      join_code: joinCode,
      deposit_pricing: { price: 5_000, charge: depositFee, charge_seller: 0 },
      pricing: null,
      charge_calculator_version: 1,
      amount_released: 0,
      amount_refunded: 0,
      available_actions: ['update', 'cancel_with_description'],
    })

    const preview = await call('buyer', 'GET', `/api/v1/p2p/transactions_by_join_code/${joinCode.toLowerCase()}`)
    expect(preview.body).toMatchObject({
      id,
      type: 'f2f',
      creator_role: 'seller',
      creator_first_name: 'Sam',
      deposit_pricing: { price: 5_000 },
      joined_by_you: false,
    })
    expect(preview.body).toMatchObject({
      charge_seller: 0,
      quantity: 1,
      client_id: created.client_id,
      is_payment_in_progress: false,
      created: created.created,
    })
    const joined = await call('buyer', 'POST', `/api/v1/p2p/transactions_by_join_code/${joinCode}/join`)
    expect(joined.body).toMatchObject({
      status: 'joined',
      role: 'buyer',
      join_code: null,
      available_actions: ['cancel_with_description', 'set_deposit_payment_method', 'pay_deposit'],
    })
    // A second tap, or a retry after a lost answer, joins nothing new.
    expect(await call('buyer', 'POST', `/api/v1/p2p/transactions_by_join_code/${joinCode}/join`)).toMatchObject({
      status: 200,
      body: { id, status: 'joined' },
    })
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions_by_join_code/${joinCode}`)).body).toMatchObject({ joined_by_you: true })

    const { transaction: depositPaid } = await payF2fByCard(call, id, 'deposit')
    expect(depositPaid).toMatchObject({ status: 'deposit_paid', deposit_paid: expect.any(String) })
    expect((await call('seller', 'GET', `/api/v1/p2p/transactions/${id}`)).body.available_actions).toEqual([
      'cancel_with_description',
      'accept_deposit',
    ])
    const accepted = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)
    expect(accepted.body).toMatchObject({
      status: 'deposit_accepted',
      available_actions: ['cancel_with_description', 'set_price', 'skip_remainder'],
    })

    const remainderQuote = await call('seller', 'GET', `/api/v1/p2p/transactions/${id}/charge?price=20000`)
    expect(remainderQuote.body).toMatchObject({
      price: 20_000,
      charge: remainderFee,
      payment_method: 'card',
      charge_buyer_client: 0,
      charge_seller_client: 0,
      charge_calculator_version: 1,
    })
    const priced = await setTotal(call, id, 20_000)
    expect(priced).toMatchObject({
      pricing: { price: 20_000, charge: remainderFee, charge_seller: 0 },
      charge_calculator_version: 1,
      high_value: false,
    })
    // A row of My transactions names the total from now on, not the deposit.
    expect((await call('buyer', 'GET', '/api/v1/me/transactions?view=summary')).body).toEqual([
      expect.objectContaining({ id, status: 'priced', amount: 20_000 }),
    ])

    const remainder = await payF2fByCard(call, id, 'remainder')
    expect(remainder.transaction).toMatchObject({ status: 'remainder_paid' })
    const handover = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)
    expect(handover.body).toMatchObject({ status: 'seller_handover_confirmed', complaint_period_deadline: '2026-11-23T10:00:00.000Z' })
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}`)).body.available_actions).toEqual([
      'complain',
      'end_complaint_period',
    ])

    await clock.advance(app, 24 * 3600)
    const released = await call('seller', 'GET', `/api/v1/p2p/transactions/${id}`)
    expect(released.body).toMatchObject({
      status: 'funds_released',
      amount_released: 20_000,
      complaint_period_ended: expect.any(String),
      available_actions: [],
    })

    // Two holds (one per payment), one release: the seller gets the total, Pactum both fees.
    const postings = await ledger(id)
    expect(postings.filter((p) => p.kind === 'hold' && p.account.startsWith('escrow:'))).toEqual([
      expect.objectContaining({ part: 'deposit', amount: 5_000 + depositFee }),
      expect.objectContaining({ part: 'remainder', amount: 15_000 + remainderFee }),
    ])
    expect(
      postings.filter((p) => p.kind === 'release' && !p.account.startsWith('escrow:')).map((p) => [p.account.split(':')[0], p.amount]),
    ).toEqual([
      ['seller', 20_000],
      ['revenue', depositFee + remainderFee],
    ])
    expect(await outbox(id)).toEqual([expect.objectContaining({ action: 'transfer', status: 'sent', idempotency_key: `${id}:transfer` })])
    expect((await call('admin', 'GET', '/api/v1/admin/ledger/verify')).body).toEqual({ ok: true, breaches: [] })

    // Each step e-mailed the parties it concerns, in face-to-face words and with the total as the price.
    const mails = await writtenMails(dataDir)
    const joinedMail = mails.find((mail) => mail.to === 'seller@example.com' && /joined/.test(mail.subject))
    expect(joinedMail?.text).toContain('deposit')
    expect(joinedMail?.text).not.toContain('ship')
    expect(mails.find((mail) => mail.to === 'seller@example.com' && /Money released/.test(mail.subject))?.text).toContain('€200.00')
    const subjects = mails.map((mail) => `${mail.to} ${mail.subject}`)
    for (const expected of [/^seller@example\.com .*joined/i, /^buyer@example\.com .*deposit/i, /^buyer@example\.com .*price/i]) {
      expect(
        subjects.some((subject) => expected.test(subject)),
        `${expected} in ${subjects.join('\n')}`,
      ).toBe(true)
    }
  })

  it('releases only the deposit when the seller skips the remainder', async () => {
    const { app, clock, call, ledger } = await start()
    const { id } = await joinedF2fSale(call)
    await depositAccepted(call, id)
    const skipped = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)
    expect(skipped.body).toMatchObject({ status: 'remainder_skipped', pricing: null, available_actions: ['confirm_handover'] })
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}`)).body.available_actions).toEqual(['confirm_handover'])
    // The buyer may confirm first; the seller's confirmation still starts the window.
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body).toMatchObject({
      status: 'buyer_handover_confirmed',
      complaint_period_deadline: null,
    })
    const confirmed = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)
    expect(confirmed.body).toMatchObject({ status: 'seller_handover_confirmed', complaint_period_deadline: expect.any(String) })
    await clock.advance(app, 24 * 3600)
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}`)).body).toMatchObject({
      status: 'funds_released',
      amount_released: 5_000,
    })
    const release = (await ledger(id)).filter((p) => p.kind === 'release' && !p.account.startsWith('escrow:'))
    expect(release.map((p) => [p.account.split(':')[0], p.amount])).toEqual([
      ['seller', 5_000],
      ['revenue', depositFee],
    ])
  })

  it('refunds the deposit less its fee when the buyer cancels after paying it', async () => {
    const { app, clock, call, ledger, outbox } = await start()
    const { id } = await joinedF2fSale(call)
    const { intentId } = await payF2fByCard(call, id, 'deposit')
    const cancelled = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/cancel_with_description`, {
      description: 'cancelled by buyer',
    })
    expect(cancelled.body).toMatchObject({
      status: 'cancelled_with_deposit',
      amount_refunded: 5_000,
      cancellation: { description: 'cancelled by buyer' },
      available_actions: [],
    })
    const refund = (await ledger(id)).filter((p) => p.kind === 'refund' && !p.account.startsWith('escrow:'))
    expect(refund.map((p) => [p.account.split(':')[0], p.amount])).toEqual([
      ['buyer_refund', 5_000],
      ['revenue', depositFee],
    ])
    // The provider refunds the deposit's payment, then says so: the case closes.
    await clock.advance(app, 60)
    await clock.advance(app, 60)
    expect(await outbox(id)).toEqual([
      expect.objectContaining({
        action: 'refund',
        status: 'sent',
        idempotency_key: `${id}:refund:deposit`,
        payload: expect.objectContaining({ amount: 5_000, payment_intent_id: intentId }),
      }),
    ])
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}`)).body).toMatchObject({
      status: 'deposit_refunded',
      deposit_refunded: expect.any(String),
    })
  })

  it('lets the buyer complain after the handover and the seller refund everything', async () => {
    const { app, call, outbox } = await start()
    const { id } = await joinedF2fSale(call)
    await depositAccepted(call, id)
    await setTotal(call, id, 20_000)
    await payF2fByCard(call, id, 'remainder')
    await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/complain`, { description: 'x' })).body.code).toBe('not_buyer')
    const complained = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/complain`, { description: 'The lens is scratched' })
    expect(complained.body).toMatchObject({ status: 'complained', complaint: { description: 'The lens is scratched' } })
    const refunded = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_complaint`)
    expect(refunded.body).toMatchObject({ status: 'payment_refunded', amount_refunded: 5_000 + depositFee + 15_000 + remainderFee })
    await app.services.jobs.runDue()
    // One refund per payment (written in the same instant, so compared in key order).
    expect((await outbox(id)).map((row) => [row.idempotency_key.split(':').slice(1).join(':'), row.status]).sort()).toEqual([
      ['refund:deposit', 'sent'],
      ['refund:remainder', 'sent'],
    ])
  })

  it('lets an admin settle a face-to-face dispute, recording who and why', async () => {
    const { app, call, db } = await start()
    const { id } = await joinedF2fSale(call)
    await depositAccepted(call, id)
    await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)
    await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)
    await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/complain`, { description: 'Not the camera I saw' })
    const admin = await call('admin', 'GET', '/api/v1/admin/transactions')
    expect(admin.body.find((row: { id: string }) => row.id === id)).toMatchObject({
      type: 'f2f',
      role: null,
      available_actions: ['release_funds', 'decide'],
    })
    const settled = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/release_funds?to=seller`, {
      reason: 'Photos show the same camera',
    })
    expect(settled.body).toMatchObject({ type: 'f2f', status: 'funds_released', amount_released: 5_000 })
    const audit = await db
      .selectFrom('transaction_events')
      .select(['event', 'actor_kind', 'reason'])
      .where('transaction_id', '=', id)
      .where('actor_kind', '=', 'admin')
      .execute()
    expect(audit).toEqual([{ event: 'release_funds', actor_kind: 'admin', reason: 'Photos show the same camera' }])
    await app.services.jobs.runDue()
  })

  it('starts the window at the buyer’s confirmation where the client hides the seller’s step', async () => {
    const { db, call } = await start()
    await db.insertInto('clients').values({ id: 'market-partner', name: 'Market partner', show_seller_confirm_handover: false }).execute()
    const { id } = await joinedF2fSale(call, {}, { clientId: 'market-partner' })
    await depositAccepted(call, id)
    const skipped = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)
    expect(skipped.body).toMatchObject({ show_seller_confirm_handover: false, available_actions: [] })
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body.code).toBe('not_buyer')
    const confirmed = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)
    expect(confirmed.body).toMatchObject({
      status: 'buyer_handover_confirmed',
      complaint_period_deadline: '2026-11-23T10:00:00.000Z',
      available_actions: ['complain', 'end_complaint_period'],
    })
  })
})

describe('face-to-face refusals', () => {
  it('names the reason: remainder too low, wrong role, wrong state, a fee not shown', async () => {
    const { call } = await start()
    const { id } = await joinedF2fSale(call)
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)).body.code).toBe('deposit_not_paid')
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_remainder`)).body.code).toBe('deposit_not_paid')
    await payF2fByCard(call, id, 'deposit')
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)).body.code).toBe('not_seller')
    await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)).body.code).toBe('deposit_already_accepted')
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body.code).toBe('remainder_required')

    const tooLow = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/set_price`, {
      price: 5_099,
      charge: 43,
      charge_calculator_version: 1,
    })
    expect(tooLow).toMatchObject({ status: 400, body: { code: 'remainder_too_low' } })
    const unshown = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/set_price`, {
      price: 20_000,
      charge: 1,
      charge_calculator_version: 1,
    })
    expect(unshown).toMatchObject({ status: 409, body: { code: 'incorrect_charge', details: { charge: remainderFee } } })
    const otherSchedule = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/set_price`, {
      price: 20_000,
      charge: remainderFee,
      charge_calculator_version: 2,
    })
    expect(otherSchedule).toMatchObject({
      status: 409,
      body: { code: 'incorrect_calc_version', details: { charge_calculator_version: 1 } },
    })
    expect(
      (
        await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/set_price`, {
          price: 20_000,
          charge: remainderFee,
          charge_calculator_version: 1,
        })
      ).body.code,
    ).toBe('not_seller')
    await setTotal(call, id, 20_000)
    expect(
      (await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/set_price`, { price: 30_000, charge: 0, charge_calculator_version: 1 }))
        .body.code,
    ).toBe('price_already_set')
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)).body.status).toBe('remainder_skipped')
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)).body.code).toBe('remainder_already_skipped')
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_remainder`)).body.code).toBe('remainder_already_skipped')
    await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body.code).toBe('handover_already_confirmed')
    expect(
      (await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/cancel_with_description`, { description: 'changed my mind' })).body.code,
    ).toBe('already_paid')
  })

  it('answers 404 to strangers, to online ids under /p2p and to a join by a code of the other kind', async () => {
    const { call } = await start()
    const { id, joinCode } = await createF2fSale(call)
    const online = await joinedSale(call)
    expect((await call('stranger', 'GET', `/api/v1/p2p/transactions/${id}`)).status).toBe(404)
    expect((await call('stranger', 'POST', `/api/v1/p2p/transactions/${id}/cancel_with_description`, { description: 'x' })).status).toBe(
      404,
    )
    expect((await call('seller', 'GET', `/api/v1/p2p/transactions/${online.id}`)).status).toBe(404)
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).status).toBe(404)
    // The preview answers either kind, saying which (a join link does not: issue 33 item 13); joining keeps to its kind.
    expect((await call('buyer', 'GET', `/api/v1/transactions?join_code=${joinCode}`)).body).toMatchObject({
      id,
      type: 'f2f',
      deposit_pricing: { price: 5_000 },
      creator_first_name: 'Sam',
    })
    expect((await call('buyer', 'PUT', `/api/v1/transactions?join_code=${joinCode}`)).body.code).toBe('join_code_not_found')
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}`)).status).toBe(404)
    expect((await call('seller', 'GET', `/api/v1/p2p/transactions_by_join_code/${joinCode}`)).body.code).toBe('cannot_join_own_transaction')
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions_by_join_code/${joinCode}/join`)).body.code).toBe(
      'cannot_join_own_transaction',
    )
    expect((await call(null, 'GET', `/api/v1/p2p/transactions/${id}`)).status).toBe(401)
  })

  it('checks the deposit as a price: minimum, currency open to the user, the fee shown', async () => {
    const { call } = await start()
    const body = {
      role: 'seller',
      currency: 'eur',
      description: 'A lamp',
      deposit_price: 50,
      deposit_charge: 42,
      charge_calculator_version: 1,
    }
    expect((await call('seller', 'POST', '/api/v1/p2p/me/transactions', body)).body).toMatchObject({
      code: 'price_too_low',
      details: { field: 'deposit_price' },
    })
    expect(
      (await call('seller', 'POST', '/api/v1/p2p/me/transactions', { ...body, deposit_price: 1_000, currency: 'jpy' })).body.code,
    ).toBe('unsupported_currency')
    expect((await call('seller', 'POST', '/api/v1/p2p/me/transactions', { ...body, deposit_price: 1_000 })).body.code).toBe(
      'incorrect_charge',
    )
    expect((await call('seller', 'POST', '/api/v1/p2p/me/transactions', { ...body, description: '' })).status).toBe(400)
    // Above the largest price the fee can be computed for, the answer names the limit.
    const tooHigh = await call(null, 'GET', '/api/v1/p2p/charge?price=100000000000000&currency=eur')
    expect(tooHigh).toMatchObject({
      status: 400,
      body: { code: 'price_too_high', details: { field: 'price', maximum: 90_071_992_547_409 } },
    })
    expect((await call(null, 'GET', '/api/v1/charge?price=12.5&currency=eur')).body.code).toBe('validation_failed')
  })

  it('lets the creator change the deposit before anyone joined, and cancel with the fixed text', async () => {
    const { call } = await start()
    const { id, joinCode } = await createF2fSale(call)
    const quote = await call('seller', 'GET', '/api/v1/p2p/charge?price=8000&currency=eur&payment_method=card')
    const updated = await call('seller', 'PATCH', `/api/v1/p2p/transactions/${id}`, {
      deposit_price: 8_000,
      deposit_charge: quote.body.charge,
      charge_calculator_version: quote.body.charge_calculator_version,
    })
    expect(updated.body).toMatchObject({ deposit_pricing: { price: 8_000, charge: quote.body.charge }, join_code: joinCode })
    expect((await call('seller', 'PATCH', `/api/v1/p2p/transactions/${id}`, { deposit_price: 9_000 })).body).toMatchObject({
      code: 'validation_failed',
      error: expect.stringMatching(/^body\.deposit_charge: /),
      details: { fields: [{ field: 'body.deposit_charge', message: expect.any(String) }] },
    })
    const cancelled = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/cancel_with_description`, {
      description: 'cancelled by creator',
    })
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancellation: { description: 'cancelled by creator' }, join_code: null })
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions_by_join_code/${joinCode}`)).body.code).toBe('join_code_not_found')
  })

  it('lists both kinds in My transactions, with the same filters and paging', async () => {
    const { call } = await start()
    const online = await joinedSale(call)
    const f2f = await joinedF2fSale(call)
    const f2fCreated = await createF2fSale(call)
    const all = await call('buyer', 'GET', '/api/v1/me/transactions')
    expect(all.body.map((row: { id: string; type: string }) => [row.id, row.type])).toEqual([
      [f2f.id, 'f2f'],
      [online.id, 'online'],
    ])
    // The buyer must pay in both; the seller waits in both, and only sees its own unjoined offer as waiting too.
    expect((await call('buyer', 'GET', '/api/v1/me/transactions?filter=inputRequired')).body).toHaveLength(2)
    expect((await call('seller', 'GET', '/api/v1/me/transactions?filter=inputRequired')).body).toHaveLength(0)
    expect((await call('seller', 'GET', '/api/v1/me/transactions?filter=waiting')).body).toHaveLength(3)
    const onlyF2f = await call('seller', 'GET', '/api/v1/p2p/me/transactions?limit=1')
    expect(onlyF2f.body.map((row: { id: string }) => row.id)).toEqual([f2fCreated.id])
    const next = await call('seller', 'GET', `/api/v1/p2p/me/transactions?limit=1&after_id=${f2fCreated.id}`)
    expect(next.body.map((row: { id: string }) => row.id)).toEqual([f2f.id])
    expect((await call('seller', 'GET', '/api/v1/p2p/me/transactions?after_id=nope')).body.code).toBe('invalid_after_id')

    // The rows as My transactions asks for them: the full view's fields a row shows, and the amount it names.
    type FullRow = {
      id: string
      type: string
      status: string
      role: string
      description: string
      currency: string
      listing_id: string | null
      created: string
      unread_messages?: number
      price?: number
      pricing?: { price: number } | null
      deposit_pricing?: { price: number }
      buyer_id: string | null
      seller_id: string | null
    }
    // The cast has first names only (Sam sells, Bea buys); a sale no one joined names no one.
    const asRow = ({ id, type, status, role, description, currency, listing_id, created, unread_messages, ...rest }: FullRow) => ({
      ...{ id, type, status, role, description, currency, listing_id, created, unread_messages },
      amount: type === 'f2f' ? (rest.pricing?.price ?? rest.deposit_pricing!.price) : rest.price,
      counterparty_name: rest.buyer_id && rest.seller_id ? (role === 'seller' ? 'Bea' : 'Sam') : null,
    })
    const sellersAll = await call('seller', 'GET', '/api/v1/me/transactions')
    expect(sellersAll.body).toHaveLength(3)
    expect((await call('seller', 'GET', '/api/v1/me/transactions?view=summary')).body).toEqual(sellersAll.body.map(asRow))
    expect((await call('buyer', 'GET', '/api/v1/me/transactions?view=summary&filter=inputRequired')).body).toEqual(all.body.map(asRow))
    const f2fRows = await call('seller', 'GET', `/api/v1/p2p/me/transactions?limit=1&view=summary&after_id=${f2fCreated.id}`)
    expect(f2fRows.body).toEqual(next.body.map(asRow))
    expect((await call('seller', 'GET', '/api/v1/me/transactions?view=brief')).body).toMatchObject({
      code: 'validation_failed',
      details: { fields: [{ field: 'querystring.view' }] },
    })
    // GET /transactions/{id} shows either kind, so a link to the status page needs no kind.
    expect((await call('buyer', 'GET', `/api/v1/transactions/${f2f.id}`)).body).toMatchObject({ type: 'f2f', status: 'joined' })
  })

  it('answers the remaining calls: deposit method, client secrets, party and billing details, reject', async () => {
    const { call } = await start()
    const { id } = await joinedF2fSale(call)
    const repriced = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/set_deposit_payment_method`, { payment_method: 'p24' })
    expect(repriced.body).toMatchObject({ payment_method: 'p24', deposit_pricing: { price: 5_000, charge: 190 } })
    expect(
      (await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/set_deposit_payment_method`, { payment_method: 'card' })).body.code,
    ).toBe('not_buyer')
    await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/set_deposit_payment_method`, { payment_method: 'card' })
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}/deposit_stripe_client_secret`)).body.code).toBe('deposit_not_paid')
    const opened = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_deposit`)
    expect(opened.body).toMatchObject({ payment_intent_id: expect.stringMatching(/^pi_/), charge: depositFee })
    const again = await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}/deposit_stripe_client_secret`)
    expect(again.body).toEqual(opened.body)
    expect((await call('seller', 'GET', `/api/v1/p2p/transactions/${id}/deposit_stripe_client_secret`)).body.code).toBe('not_buyer')
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}/remainder_stripe_client_secret`)).body.code).toBe('deposit_not_paid')
    // Once the deposit is paid its secret is no longer given out; the remainder waits for the total.
    await payF2fByCard(call, id, 'deposit')
    expect(await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}/deposit_stripe_client_secret`)).toMatchObject({
      status: 409,
      body: { code: 'already_paid' },
    })
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}/remainder_stripe_client_secret`)).body.code).toBe('price_not_set')
    // Nor can pricing come before the seller accepted the deposit.
    const early = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/set_price`, {
      price: 20_000,
      charge: remainderFee,
      charge_calculator_version: 1,
    })
    expect(early).toMatchObject({ status: 409, body: { code: 'deposit_not_accepted' } })
    // Shipping addresses are for online sales: a face-to-face id is not found there.
    expect(
      (
        await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, {
          name: 'Bea',
          line1: 'Main 1',
          city: 'Berlin',
          postal_code: '10115',
          country_code: 'de',
        })
      ).status,
    ).toBe(404)

    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}/seller_details`)).body).toMatchObject({
      first_name: 'Sam',
      email: 'seller@example.com',
    })
    expect((await call('seller', 'GET', `/api/v1/p2p/transactions/${id}/buyer_details`)).body).toMatchObject({ first_name: 'Bea' })
    expect((await call('stranger', 'GET', `/api/v1/p2p/transactions/${id}/buyer_details`)).status).toBe(404)
    // Nothing is shipped face to face: no address was asked for.
    expect((await call('seller', 'GET', `/api/v1/p2p/transactions/${id}/billing_details`)).body.code).toBe('not_found')

    const offer = await createF2fSale(call)
    const rejected = await call('buyer', 'POST', `/api/v1/p2p/transactions/${offer.id}/reject`, { join_code: offer.joinCode })
    expect(rejected.body).toMatchObject({ status: 'rejected', role: null })
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions_by_join_code/${offer.joinCode}/join`)).body.code).toBe(
      'join_code_not_found',
    )
  })
})
