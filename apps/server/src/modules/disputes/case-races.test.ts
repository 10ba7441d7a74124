import type { Split } from '@pactum/domain/transactions/dispute-case'
import { disputed as f2fDisputed } from '@pactum/domain/transactions/f2f-rules'
import { disputed as onlineDisputed } from '@pactum/domain/transactions/online-rules'
import { splitAmounts } from '@pactum/domain/transactions/settlement'
import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { depositAccepted, joinedF2fSale, payF2fByCard, setTotal } from '../../testing/f2f-sale-steps.ts'
import { raceProbes } from '../../testing/race-probes.ts'
import { complainAfterDelivery, joinedSale, type SaleCall } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { findById } from '../transactions/transactions-repository.ts'
import { toState } from '../transactions/engine/transaction-state.ts'

/**
 * A case's races through the real app (issue 32, docs/decisions/095
 * "Races"): an accept against a newer offer, a decline, a second accept,
 * an admin's decision and the response timer; two admins deciding at once.
 * Whatever interleaves, the hold is resolved once (one `split` entry, or
 * one `refund` when a full refund wins; one set of provider calls) and every loser gets a
 * documented refusal, never a 500. Each race runs in rounds (`rounds`
 * below) so that both orders are seen on both engines; `close()` verifies
 * the ledger after each test.
 */

const testApps = appPerTest()

type Who = 'seller' | 'buyer' | 'admin' | 'otherAdmin'
type Answer = Awaited<ReturnType<SaleCall>>

/** How each kind reaches a complaint, and where its routes are. */
const kinds = [
  {
    kind: 'online',
    path: (id: string) => `/api/v1/transactions/${id}`,
    /** Paid, shipped, delivered and complained about: 100.00 in dispute. */
    complained: async (call: SaleCall) => {
      const { id } = await joinedSale(call)
      expect((await complainAfterDelivery(call, id)).status).toBe('complained')
      return id
    },
  },
  {
    kind: 'face to face',
    path: (id: string) => `/api/v1/p2p/transactions/${id}`,
    /** A deposit and a remainder paid, the handover confirmed, complained about: 200.00 in dispute. */
    complained: async (call: SaleCall) => {
      const { id } = await joinedF2fSale(call)
      await depositAccepted(call, id)
      await setTotal(call, id, 20_000)
      await payF2fByCard(call, id, 'remainder')
      expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body.status).toBe(
        'seller_handover_confirmed',
      )
      const complaint = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/complain`, {
        description: 'The lens is scratched',
        reason: 'not_as_described',
      })
      expect(complaint.body.status).toBe('complained')
      return id
    },
  },
] as const

describe.each(kinds)('a $kind case', ({ path, complained }) => {
  async function start() {
    const clock = new TestClock(new Date('2026-11-23T10:00:00Z'))
    const testApp = await testApps.open({ clock })
    const { app } = testApp
    const tokens = await partyTokens<Who>(testApp.tokenFor, {
      seller: { firstName: 'Sam' },
      buyer: { firstName: 'Bea' },
      admin: { admin: true },
      otherAdmin: { admin: true },
    })
    const call = apiCaller(app, tokens)
    const db = app.services.db
    const probes = raceProbes(app, clock, 'whsec_case_races_0123456789abcdef')

    const caseOf = async (id: string) => (await call('buyer', 'GET', `${path(id)}/case`)).body
    /** `share` of the price back to the buyer, the rest to the seller. */
    const split = async (id: string, share: number): Promise<Split> => {
      const price: number = (await caseOf(id)).price_in_dispute
      const refundToBuyer = Math.round(price * share)
      return { refundToBuyer, releaseToSeller: price - refundToBuyer }
    }
    const body = (s: Split) => ({ refund_to_buyer: s.refundToBuyer, release_to_seller: s.releaseToSeller })
    const propose = (who: 'buyer' | 'seller', id: string, s: Split) =>
      call(who, 'POST', `${path(id)}/settlement_offers`, { ...body(s), note: `${who} proposes` })
    /** Proposes and answers the id of the offer now open. */
    const proposed = async (who: 'buyer' | 'seller', id: string, s: Split) => {
      expect((await propose(who, id, s)).status).toBe(200)
      const open = ((await caseOf(id)).offers as Array<{ id: string; outcome: string }>).find((offer) => offer.outcome === 'open')
      return open!.id
    }
    const answer = (who: 'buyer' | 'seller', id: string, offerId: string, verb: 'accept' | 'decline') =>
      call(who, 'POST', `${path(id)}/settlement_offers/${offerId}/${verb}`)
    const decide = (who: 'admin' | 'otherAdmin', id: string, s: Split) =>
      call(who, 'POST', `/api/v1/admin/transactions/${id}/decide`, { ...body(s), reason: `${who} read the evidence` })
    const offerOutcomes = async (id: string) => ((await caseOf(id)).offers as Array<{ outcome: string }>).map((offer) => offer.outcome)

    /** What a split would pay each side on this sale as it stands now (the fees follow the price). */
    const amountsOf = async (id: string, s: Split) => {
      const state = toState(await findById(db, id))
      const money = state.kind === 'online' ? onlineDisputed(state) : f2fDisputed(state)
      return splitAmounts(money, s)
    }
    /** The entries that resolve the hold: a race run right wrote one of them, once. */
    const resolutions = async (id: string) =>
      (await db.selectFrom('ledger_entries').select('kind').where('transaction_id', '=', id).execute())
        .map((row) => row.kind)
        .filter((kind) => kind === 'split' || kind === 'refund' || kind === 'release')
    /** The provider calls asked for, all sent, under keys that never repeat: what each moves, by action. */
    const providerCalls = async (id: string) => {
      const rows = await probes.outbox(id)
      expect(new Set(rows.map((row) => row.idempotency_key)).size).toBe(rows.length)
      expect(rows.map((row) => row.status)).toEqual(rows.map(() => 'sent'))
      const amounts = (action: string) =>
        rows.filter((row) => row.action === action).map((row) => (row.payload as { amount: number }).amount)
      return { refunds: amounts('refund'), transfers: amounts('transfer'), actions: new Set(rows.map((row) => row.action)) }
    }
    const sum = (amounts: number[]) => amounts.reduce((total, amount) => total + amount, 0)
    /** Settled or decided on a split once: its amounts, one `split` entry, refunds of the buyer's part and one transfer. */
    const expectSplitOnce = async (id: string, expected: { buyerRefund: number; payout: number }) => {
      await probes.settle()
      expect(await caseOf(id)).toMatchObject({ state: 'closed', amount_refunded: expected.buyerRefund, amount_released: expected.payout })
      expect(await probes.status(id)).toBe('funds_released')
      expect(await resolutions(id)).toEqual(['split'])
      const calls = await providerCalls(id)
      expect(calls.actions).toEqual(new Set(['refund', 'transfer']))
      expect(calls.transfers).toEqual([expected.payout])
      expect(sum(calls.refunds)).toBe(expected.buyerRefund)
    }
    /** Refunded in full once: one `refund` entry, and refunds of everything that was held. */
    const expectRefundedOnce = async (id: string, held: number) => {
      await probes.settle()
      expect(await caseOf(id)).toMatchObject({ state: 'closed', amount_refunded: held, amount_released: 0 })
      expect(await probes.status(id)).toBe('payment_refunded')
      expect(await resolutions(id)).toEqual(['refund'])
      const calls = await providerCalls(id)
      expect(calls.actions).toEqual(new Set(['refund']))
      expect(sum(calls.refunds)).toBe(held)
    }
    /** Nothing moved: the case still open, no entry resolving the hold, no provider call. */
    const expectNothingMoved = async (id: string) => {
      await probes.settle()
      expect(await probes.status(id)).toBe('complained')
      expect(await resolutions(id)).toEqual([])
      expect(await probes.outbox(id)).toEqual([])
    }
    return {
      ...probes,
      app,
      clock,
      call,
      db,
      caseOf,
      split,
      propose,
      proposed,
      answer,
      decide,
      offerOutcomes,
      amountsOf,
      resolutions,
      providerCalls,
      expectSplitOnce,
      expectRefundedOnce,
      expectNothingMoved,
    }
  }

  /**
   * A race of two calls runs in rounds, each on a sale of its own: the two
   * calls at once (whichever wins), then `a` written while `b` arrives, then
   * the other way round, so that both orders are seen on both engines.
   */
  const rounds = ['at once', 'a first', 'b first'] as const
  type Round = (typeof rounds)[number]
  type Probes = Awaited<ReturnType<typeof start>>
  const run = async <A, B>(t: Probes, round: Round, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> => {
    if (round === 'at once') return Promise.all([a(), b()])
    if (round === 'a first') return t.whileWriting(a, b)
    const [second, first] = await t.whileWriting(b, a)
    return [first, second]
  }
  /** In an ordered round the call written first won. */
  const expectWinner = (round: Round, winner: 'a' | 'b') => {
    if (round !== 'at once') expect(winner).toBe(round === 'a first' ? 'a' : 'b')
  }
  const refusal = (answer: Answer) => ({ status: answer.status, code: answer.body?.code })
  const recipients = async (t: Probes, id: string, template: string) =>
    (await t.notificationsOf(id, template)).map((mail) => mail.recipient_role).sort()

  it('lets an accept and a newer offer from the maker race: the split of the old offer, or the new offer open, never both', async () => {
    const t = await start()
    for (const round of rounds) {
      const id = await complained(t.call)
      const offered = await t.split(id, 0.3)
      const expected = await t.amountsOf(id, offered)
      const offerId = await t.proposed('seller', id, offered)
      const [accepted, newer] = await run(
        t,
        round,
        () => t.answer('buyer', id, offerId, 'accept'),
        async () => t.propose('seller', id, await t.split(id, 0.1)),
      )
      if (accepted.status === 200) {
        expectWinner(round, 'a')
        // The case is closed: the newer offer comes too late.
        expect(refusal(newer)).toEqual({ status: 409, code: 'funds_already_released' })
        expect(await t.offerOutcomes(id)).toEqual(['accepted'])
        await t.expectSplitOnce(id, expected)
      } else {
        expectWinner(round, 'b')
        // The newer offer replaced the one the buyer answered.
        expect(refusal(accepted)).toEqual({ status: 409, code: 'offer_not_open' })
        expect(newer.status).toBe(200)
        expect(await t.offerOutcomes(id)).toEqual(['replaced', 'open'])
        await t.expectNothingMoved(id)
      }
    }
  })

  it('lets an accept and the admin’s decision of an escalated case race: exactly one of them resolves it', async () => {
    const t = await start()
    for (const round of rounds) {
      const id = await complained(t.call)
      // Escalated, the parties may still settle (decision 095): the offer stays open to an accept.
      expect((await t.call('buyer', 'POST', `${path(id)}/escalate`)).status).toBe(200)
      const offered = await t.split(id, 0.3)
      const decided = await t.split(id, 0.7)
      const amounts = { offered: await t.amountsOf(id, offered), decided: await t.amountsOf(id, decided) }
      const offerId = await t.proposed('seller', id, offered)
      const [accepted, decision] = await run(
        t,
        round,
        () => t.answer('buyer', id, offerId, 'accept'),
        () => t.decide('admin', id, decided),
      )
      const [winner, loser] = accepted.status === 200 ? [accepted, decision] : [decision, accepted]
      expectWinner(round, winner === accepted ? 'a' : 'b')
      expect(winner.status).toBe(200)
      expect(refusal(loser)).toEqual({ status: 409, code: 'funds_already_released' })
      if (winner === accepted) {
        expect(await t.offerOutcomes(id)).toEqual(['accepted'])
        await t.expectSplitOnce(id, amounts.offered)
      } else {
        // The decision closed the case with the offer still open: it lapsed.
        expect(await t.offerOutcomes(id)).toEqual(['lapsed'])
        await t.expectSplitOnce(id, amounts.decided)
      }
      // The parties are told once how it ended, and only that way.
      expect(await recipients(t, id, 'case_settled')).toEqual(winner === accepted ? ['buyer', 'seller'] : [])
      expect(await recipients(t, id, 'case_decided')).toEqual(winner === accepted ? [] : ['buyer', 'seller'])
    }
  })

  it('lets an accept race the response timer: escalated or not, the accept settles the case once', async () => {
    const t = await start()
    // An hour apart, so that each race meets its own sale's timer alone.
    const ids: string[] = []
    for (const _round of rounds) {
      ids.push(await complained(t.call))
      await t.clock.moveBy(3600)
    }
    for (const [index, round] of rounds.entries()) {
      const id = ids[index]!
      const offered = await t.split(id, 0.4)
      const expected = await t.amountsOf(id, offered)
      const offerId = await t.proposed('seller', id, offered)
      // Everything else due by then runs first; the window ends during the race.
      const deadline = Date.parse((await t.caseOf(id)).response_deadline)
      await t.clock.advance(t.app, (deadline - t.clock.now().getTime()) / 1000 - 1)
      expect((await t.caseOf(id)).state).toBe('open')
      await t.clock.moveBy(1)
      const [accepted] = await run(
        t,
        round,
        () => t.answer('buyer', id, offerId, 'accept'),
        () => t.app.services.jobs.runDue(),
      )
      // The window's end sends the case to an admin; it does not close it to the parties (decision 095).
      expect(accepted.status).toBe(200)
      const escalated = (await t.caseOf(id)).escalated_at !== null
      expectWinner(round, escalated ? 'b' : 'a')
      expect(await recipients(t, id, 'case_escalated')).toEqual(escalated ? ['buyer', 'seller'] : [])
      expect(await t.offerOutcomes(id)).toEqual(['accepted'])
      await t.expectSplitOnce(id, expected)
    }
  })

  it('lets an accept, a newer offer, the admin’s decision and the response timer all race: the offer’s split or the decision, once', async () => {
    const t = await start()
    const ids: string[] = []
    for (let sale = 0; sale < 3; sale++) {
      ids.push(await complained(t.call))
      await t.clock.moveBy(3600)
    }
    for (const id of ids) {
      const offered = await t.split(id, 0.3)
      const decided = await t.split(id, 0.6)
      const newerSplit = await t.split(id, 0.1)
      const amounts = { offered: await t.amountsOf(id, offered), decided: await t.amountsOf(id, decided) }
      const offerId = await t.proposed('seller', id, offered)
      const deadline = Date.parse((await t.caseOf(id)).response_deadline)
      await t.clock.advance(t.app, (deadline - t.clock.now().getTime()) / 1000 - 1)
      await t.clock.moveBy(1)
      const [accepted, newer, decision] = await Promise.all([
        t.answer('buyer', id, offerId, 'accept'),
        t.propose('seller', id, newerSplit),
        t.decide('admin', id, decided),
        t.app.services.jobs.runDue(),
      ])
      const outcomes = await t.offerOutcomes(id)
      if (accepted.status === 200) {
        expect(refusal(newer)).toEqual({ status: 409, code: 'funds_already_released' })
        expect(refusal(decision)).toEqual({ status: 409, code: 'funds_already_released' })
        expect(outcomes).toEqual(['accepted'])
        await t.expectSplitOnce(id, amounts.offered)
      } else {
        // The decision won. The accept met the newer offer or the closed case, whichever came first;
        // the newer offer, if it came before the decision, replaced the one the buyer answered, and lapsed.
        expect(decision.status).toBe(200)
        expect(accepted.status).toBe(409)
        expect(['offer_not_open', 'funds_already_released']).toContain(accepted.body.code)
        if (newer.status === 200) {
          expect(outcomes).toEqual(['replaced', 'lapsed'])
        } else {
          expect(refusal(newer)).toEqual({ status: 409, code: 'funds_already_released' })
          expect(outcomes).toEqual(['lapsed'])
        }
        await t.expectSplitOnce(id, amounts.decided)
      }
      // The timer escalated the case only if it came before the end, and said so once.
      const escalated = (await t.caseOf(id)).escalated_at !== null
      expect(await recipients(t, id, 'case_escalated')).toEqual(escalated ? ['buyer', 'seller'] : [])
    }
  })

  it('accepts an offer once when the buyer taps twice at the same moment', async () => {
    const t = await start()
    // The two calls are the same: one ordered round is enough.
    for (const round of rounds.slice(0, 2)) {
      const id = await complained(t.call)
      const offered = await t.split(id, 0.5)
      const expected = await t.amountsOf(id, offered)
      const offerId = await t.proposed('seller', id, offered)
      const tap = () => t.answer('buyer', id, offerId, 'accept')
      const answers = await run(t, round, tap, tap)
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
      expectWinner(round, answers[0].status === 200 ? 'a' : 'b')
      expect(refusal(answers.find((answer) => answer.status === 409)!)).toEqual({ status: 409, code: 'funds_already_released' })
      expect(await t.historyOf(id, 'accept_settlement')).toHaveLength(1)
      await t.expectSplitOnce(id, expected)
      expect(await recipients(t, id, 'case_settled')).toEqual(['buyer', 'seller'])
    }
  })

  it('accepts an offer once when a retry carries the same Idempotency-Key while the first is still running', async () => {
    const t = await start()
    for (const round of rounds.slice(0, 2)) {
      const id = await complained(t.call)
      const offered = await t.split(id, 0.5)
      const expected = await t.amountsOf(id, offered)
      const offerId = await t.proposed('seller', id, offered)
      const tap = () =>
        t.call('buyer', 'POST', `${path(id)}/settlement_offers/${offerId}/accept`, undefined, { 'idempotency-key': `accept-${offerId}` })
      const answers = await run(t, round, tap, tap)
      // The retry is the one replayed or told the first is in progress: whichever the round let through
      // first may have reached the key second.
      const isRetry = (answer: Answer) =>
        answer.headers['idempotent-replayed'] !== undefined || refusal(answer).code === 'idempotency_request_in_progress'
      const [done, again] = isRetry(answers[0]) ? [answers[1], answers[0]] : answers
      expect(done.status).toBe(200)
      // The retry either waits for nothing and is told to come back, or gets the first one's answer.
      if (again.status === 200) {
        expect(again.headers['idempotent-replayed']).toBe('true')
        expect(again.body).toEqual(done.body)
      } else {
        expect(refusal(again)).toEqual({ status: 409, code: 'idempotency_request_in_progress' })
      }
      expect(await t.historyOf(id, 'accept_settlement')).toHaveLength(1)
      await t.expectSplitOnce(id, expected)
    }
  })

  it('lets one of two admins deciding differently at once win: a full refund or a split, not both', async () => {
    const t = await start()
    for (const round of rounds) {
      const id = await complained(t.call)
      const price: number = (await t.caseOf(id)).price_in_dispute
      const halves = await t.split(id, 0.5)
      const expected = await t.amountsOf(id, halves)
      const { amount_held: held } = await t.holding(id)
      const [full, half] = await run(
        t,
        round,
        () => t.decide('admin', id, { refundToBuyer: price, releaseToSeller: 0 }),
        () => t.decide('otherAdmin', id, halves),
      )
      if (full.status === 200) {
        expectWinner(round, 'a')
        // Everything back to the buyer: the sale is over as a refunded one.
        expect(refusal(half)).toEqual({ status: 409, code: 'already_cancelled' })
        await t.expectRefundedOnce(id, held)
      } else {
        expectWinner(round, 'b')
        expect(half.status).toBe(200)
        expect(refusal(full)).toEqual({ status: 409, code: 'funds_already_released' })
        await t.expectSplitOnce(id, expected)
      }
      // One decision, told to each party once.
      expect(await recipients(t, id, 'case_decided')).toEqual(['buyer', 'seller'])
    }
  })

  it('lets a decline and an accept of the same offer race: declined and nothing moved, or settled once', async () => {
    const t = await start()
    for (const round of rounds) {
      const id = await complained(t.call)
      const offered = await t.split(id, 0.2)
      const expected = await t.amountsOf(id, offered)
      // The buyer offers; the seller's two devices answer it differently.
      const offerId = await t.proposed('buyer', id, offered)
      const [accepted, declined] = await run(
        t,
        round,
        () => t.answer('seller', id, offerId, 'accept'),
        () => t.answer('seller', id, offerId, 'decline'),
      )
      if (accepted.status === 200) {
        expectWinner(round, 'a')
        expect(refusal(declined)).toEqual({ status: 409, code: 'funds_already_released' })
        expect(await t.offerOutcomes(id)).toEqual(['accepted'])
        await t.expectSplitOnce(id, expected)
      } else {
        expectWinner(round, 'b')
        expect(declined.status).toBe(200)
        expect(refusal(accepted)).toEqual({ status: 409, code: 'offer_not_open' })
        expect(await t.offerOutcomes(id)).toEqual(['declined'])
        await t.expectNothingMoved(id)
      }
    }
  })
})
