import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { type LoadClient } from './load-client.ts'

/**
 * A mixed load through the front door, as many clients at once: whole
 * online card sales (create → join → pay → track → confirm delivery; the
 * complaint-window timer then releases the money), transactions created and
 * left, and reads of lists and single transactions. `disrupt` runs once,
 * part-way through (the cluster test kills a server process there and
 * starts it again). What the server acknowledged is returned, for the
 * checks against the database afterwards.
 *
 * After each of their actions on a sale, the user who acted reads their
 * list (`GET /me/transactions`, which a read replica may serve): it must
 * show the sale at least as far on as the action's answer did
 * (decision 123: no user sees a state older than their own last action).
 */

export interface MixedLoadOptions {
  client: LoadClient
  /** An access token for that e-mail (the embedded sign-in's key; users are made on first use). */
  token(email: string): Promise<string>
  seconds: number
  saleWorkers: number
  createWorkers: number
  readWorkers: number
  /** When `disrupt` runs, as a share of `seconds`. */
  disruptAt: number
  disrupt(): Promise<void>
  log(line: string): void
}

export interface MixedLoadResult {
  /** Sales whose client saw every step through (the money must end released). */
  sales: string[]
  /** Transactions whose create was acknowledged, with the description that makes each unique. */
  created: { id: string; description: string }[]
  /** Creates never acknowledged (the client gave up): each must exist at most once. */
  unacknowledged: string[]
  reads: { ok: number; failed: number }
  /** Actions each followed by the actor's list, and the lists that showed an older state (none may). */
  ownWrites: { checked: number; older: string[] }
  failures: string[]
}

/** The online happy path's states in the order a sale moves through them. */
const progress = ['created', 'joined', 'paid', 'tracked', 'delivered', 'complaint_period_ended', 'funds_released']

const price = 10_000

export async function runMixedLoad(options: MixedLoadOptions): Promise<MixedLoadResult> {
  const { client } = options
  const run = randomBytes(3).toString('hex')
  const result: MixedLoadResult = {
    sales: [],
    created: [],
    unacknowledged: [],
    reads: { ok: 0, failed: 0 },
    ownWrites: { checked: 0, older: [] },
    failures: [],
  }
  const quote = await client.must(null, 'GET', `/api/v1/charge?price=${price}&currency=eur&payment_method=card`)
  let sequence = 0
  const next = () => (sequence += 1)

  /** The actor's next list read after their action on `id`, which answered `status`. */
  const ownList = async (token: string, id: string, status: unknown, action: string) => {
    const list = await client.call(token, 'GET', '/api/v1/me/transactions?limit=20&view=summary')
    if (list.status !== 200 || !Array.isArray(list.body)) throw new Error(`GET /me/transactions after ${action} answered ${list.status}`)
    result.ownWrites.checked += 1
    const row = list.body.find((item) => item.id === id)
    const shown = row ? progress.indexOf(String(row.status)) : -1
    if (shown < progress.indexOf(String(status))) {
      result.ownWrites.older.push(
        `${action} on ${id} answered ${String(status)}; the actor's list then showed ${row ? String(row.status) : 'no such sale'}`,
      )
    }
  }

  const create = async (seller: string, description: string, key: string) => {
    const body = {
      role: 'seller',
      price,
      currency: 'eur',
      description,
      payment_method: 'card',
      charge: quote.charge,
      charge_calculator_version: quote.charge_calculator_version,
    }
    try {
      const created = await client.must(seller, 'POST', '/api/v1/me/transactions', body, key)
      result.created.push({ id: String(created.id), description })
      return created
    } catch (error) {
      result.unacknowledged.push(description)
      throw error
    }
  }

  const sale = async (seller: string, worker: number) => {
    const n = next()
    const key = (step: string) => `cluster-${run}-${n}-${step}`
    const buyer = await options.token(`cluster-buyer-${run}-${n}@example.com`)
    const created = await create(seller, `Cluster sale ${run}-${n}`, key('create'))
    const id = String(created.id)
    await ownList(seller, id, created.status, 'create')
    await client.must(seller, 'GET', `/api/v1/transactions/${id}`)
    const join = await client.call(buyer, 'PUT', `/api/v1/transactions?join_code=${String(created.join_code)}`)
    if (join.status >= 300) {
      // A PUT may be sent again by nginx after its first attempt committed (a process died before
      // answering): the second finds it joined. The client then reads what it has.
      const view = await client.must(buyer, 'GET', `/api/v1/transactions/${id}`)
      if (view.role !== 'buyer') throw new Error(`worker ${worker}: join answered ${join.status} ${JSON.stringify(join.body)}`)
    }
    await ownList(buyer, id, 'joined', 'join')
    const payment = await client.must(buyer, 'POST', `/api/v1/transactions/${id}/pay`, undefined, key('pay'))
    const card = await client.call(null, 'POST', `/sandbox/v1/payment_intents/${String(payment.payment_intent_id)}/confirm`, {
      client_secret: payment.client_secret,
      card_number: '4242424242424242',
    })
    // The browser's card confirmation takes no key: one sent again after it succeeded is refused, and confirm_payment tells.
    if (card.status >= 300 && !card.retried) throw new Error(`card confirmation answered ${card.status} ${JSON.stringify(card.body)}`)
    const paid = await client.call(
      buyer,
      'POST',
      `/api/v1/transactions/${id}/confirm_payment`,
      { payment_intent_id: payment.payment_intent_id },
      key('confirm-payment'),
    )
    const paidCode = paid.body && !Array.isArray(paid.body) ? paid.body.code : undefined
    if (paid.status >= 300 && paidCode !== 'already_paid')
      throw new Error(`confirm_payment answered ${paid.status} ${JSON.stringify(paid.body)}`)
    await ownList(buyer, id, 'paid', 'confirm_payment')
    const tracked = await client.must(
      seller,
      'POST',
      `/api/v1/transactions/${id}/track`,
      { carrier: 'dhl', tracking_code: `CLUSTER${String(id).replaceAll('-', '').slice(-16).toUpperCase()}` },
      key('track'),
    )
    await ownList(seller, id, tracked.status, 'track')
    const delivered = await client.must(buyer, 'POST', `/api/v1/transactions/${id}/confirm_delivery`, undefined, key('confirm-delivery'))
    // A retry whose first attempt committed in a process that then died gets the transaction as it is now:
    // past the 8 s complaint window, already released by the timer.
    if (!['delivered', 'complaint_period_ended', 'funds_released'].includes(String(delivered.status))) {
      throw new Error(`sale ${id} is ${String(delivered.status)} after confirm_delivery`)
    }
    await ownList(buyer, id, delivered.status, 'confirm_delivery')
    result.sales.push(id)
  }

  const until = Date.now() + options.seconds * 1000
  const loop = async (label: string, work: () => Promise<void>) => {
    while (Date.now() < until) {
      try {
        await work()
      } catch (error) {
        result.failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }

  const reader = await options.token(`cluster-reader-${run}@example.com`)
  const readerOwn = String((await create(reader, `Cluster read ${run}`, `cluster-${run}-reader`)).id)
  const read = async (token: string, url: string) => {
    const answer = await client.call(token, 'GET', url)
    if (answer.status === 200) result.reads.ok += 1
    else {
      result.reads.failed += 1
      throw new Error(`GET ${url} answered ${answer.status}`)
    }
  }

  const disruption = sleep(options.seconds * options.disruptAt * 1000).then(() => options.disrupt())
  await Promise.all([
    ...Array.from({ length: options.saleWorkers }, async (_, worker) => {
      const seller = await options.token(`cluster-seller-${run}-${worker}@example.com`)
      await loop(`sale worker ${worker}`, () => sale(seller, worker))
    }),
    ...Array.from({ length: options.createWorkers }, async (_, worker) => {
      const seller = await options.token(`cluster-creator-${run}-${worker}@example.com`)
      await loop(`create worker ${worker}`, async () => {
        const n = next()
        const created = await create(seller, `Cluster create ${run}-${n}`, `cluster-${run}-${n}-create`)
        await ownList(seller, String(created.id), created.status, 'create')
      })
    }),
    ...Array.from({ length: options.readWorkers }, async () => {
      await loop('read worker', async () => {
        await read(reader, '/api/v1/me/transactions?limit=20')
        await read(reader, `/api/v1/transactions/${readerOwn}`)
      })
    }),
    disruption,
  ])
  options.log(
    `load done: ${result.sales.length} sales driven, ${result.created.length} creates acknowledged, ${result.reads.ok} reads, ${result.failures.length} failures`,
  )
  return result
}
