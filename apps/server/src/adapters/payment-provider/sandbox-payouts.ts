import { sql } from 'kysely'
import type { Selectable } from 'kysely'
import type { SandboxPayoutsTable } from '../../db/schema.ts'
import type { Balance, Payout } from './connected-accounts-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import { accountVerification, lockAccount } from './sandbox-account-state.ts'
import { newSandboxId, type SandboxDb, type SandboxKernel } from './sandbox-kernel.ts'
import { payoutFailureMessages } from './sandbox-test-data.ts'

/**
 * A sandbox connected account's balance and payouts, as Stripe Connect has
 * them. The balance is what the sandbox owes the account: transfers in
 * (sandbox-payments.ts), minus payouts that did not fail.
 *
 * Payouts run on a schedule: a run falls due `payoutDelaySeconds` after
 * money lands (a transfer) or after the account becomes able to receive
 * payouts (a document verified, a bank account set). A run pays out each currency's
 * available balance, if payouts are enabled (a bank account and a verified
 * identity document); the payout arrives (`payout.paid`) or fails
 * (`payout.failed`, the money returns to the balance) `payoutArrivalSeconds`
 * later. Stripe's default is a daily schedule; the delays are configurable
 * so that tests and demos see it happen.
 *
 * As at Stripe, every payout event is the connected account's (`account`
 * on the event, the Connect endpoint's), and a failed payout errors the
 * bank account: no payout runs until the seller replaces it, and the run
 * that replacement schedules pays the returned money out again
 * (support.stripe.com, "Managing Connect payout failures"). Which bank
 * accounts fail is in sandbox-test-data.ts (Stripe's test numbers).
 */
export const payoutQueues = {
  // `short`: one waiting run per account, however many transfers land before it runs (a new name: pg-boss cannot change a queue's policy).
  runPayouts: 'sandbox-payout-runs',
  settlePayout: 'sandbox-settle-payout',
} as const

/** Before 2026-12-06 runs were queued here, one per transfer (`standard`, so the key held nothing back); still worked so that none queued then is lost. */
const legacyRunPayouts = 'sandbox-run-payouts'

type PayoutRow = Selectable<SandboxPayoutsTable>

export class SandboxPayouts {
  readonly #kernel: SandboxKernel
  readonly #options: { payoutDelaySeconds: number; payoutArrivalSeconds: number }

  constructor(kernel: SandboxKernel, options: { payoutDelaySeconds: number; payoutArrivalSeconds: number }) {
    this.#kernel = kernel
    this.#options = options
  }

  async createQueues(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.createQueue(payoutQueues.runPayouts, { retryLimit: 10, retryDelay: 5, policy: 'short' })
    await jobs.createQueue(legacyRunPayouts, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(payoutQueues.settlePayout, { retryLimit: 10, retryDelay: 5 })
  }

  async startWorkers(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.work<{ accountId: string }>(payoutQueues.runPayouts, (data) => this.#runPayouts(data.accountId))
    await jobs.work<{ accountId: string }>(legacyRunPayouts, (data) => this.#runPayouts(data.accountId))
    await jobs.work<{ payoutId: string }>(payoutQueues.settlePayout, (data) => this.#settlePayout(data.payoutId))
  }

  /**
   * A payout run for the account falls due after the schedule's delay, unless
   * one is already waiting: that one pays out every transfer in by then, as
   * Stripe's automatic schedule pays the available balance once per interval.
   * A transfer that lands while a run is under way queues the next one.
   * None is missed between the two: the transfer's row holds a key-share
   * lock on the account (its foreign key) until it commits, and the run
   * reads the balance only once it has the account `FOR UPDATE`.
   */
  async schedulePayoutRun(trx: SandboxDb, accountId: string): Promise<void> {
    await this.#kernel.jobs.send(
      payoutQueues.runPayouts,
      { accountId },
      { db: trx, startAfter: this.#options.payoutDelaySeconds, singletonKey: `payouts:${accountId}` },
    )
  }

  /** What the sandbox owes the account: transfers in, minus payouts that did not fail. */
  async getBalance(accountId: string): Promise<Balance> {
    const { db } = this.#kernel
    const account = await db.selectFrom('sandbox_accounts').select('id').where('id', '=', accountId).executeTakeFirst()
    if (!account) throw new PaymentProviderError('not_found', `No such account: ${accountId}`)
    const rows = await this.#kernel.transaction(async (trx) => this.#balances(trx, accountId))
    return {
      // Never below zero here (the sandbox reverses no transfer), but shown as Stripe shows it if it were.
      available: rows.filter((row) => row.available !== 0).map((row) => ({ currency: row.currency, amount: row.available })),
      pending: rows.filter((row) => row.inTransit > 0).map((row) => ({ currency: row.currency, amount: row.inTransit })),
    }
  }

  async listPayouts(accountId: string): Promise<Payout[]> {
    const rows = await this.#kernel.db
      .selectFrom('sandbox_payouts')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    return rows.map(toPayout)
  }

  async #runPayouts(accountId: string): Promise<void> {
    await this.#kernel.transaction(async (trx) => {
      await lockAccount(trx, accountId)
      const verification = await accountVerification(trx, accountId)
      // Stripe holds the balance while requirements are due; a later change schedules another run.
      if (!verification.payoutsEnabled) return
      const bank = await trx
        .selectFrom('sandbox_external_accounts')
        .select(['last4', 'updated_at'])
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
      // Errored by a payout that failed since it was set: paused until the seller replaces it.
      const failedSince = await trx
        .selectFrom('sandbox_payouts')
        .select('id')
        .where('account_id', '=', accountId)
        .where('status', '=', 'failed')
        .where('updated_at', '>=', bank.updated_at)
        .executeTakeFirst()
      if (failedSince) return
      const now = this.#kernel.now()
      const arrival = new Date(now.getTime() + this.#options.payoutArrivalSeconds * 1000)
      for (const balance of await this.#balances(trx, accountId)) {
        if (balance.available <= 0) continue
        const payout = await trx
          .insertInto('sandbox_payouts')
          .values({
            id: newSandboxId('po'),
            account_id: accountId,
            amount: balance.available,
            currency: balance.currency,
            status: 'in_transit',
            bank_last4: bank.last4,
            arrival_date: arrival,
            failure_code: null,
            failure_message: null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await this.#kernel.emit(trx, 'payout.created', payoutObject(payout), accountId)
        await this.#kernel.jobs.send(payoutQueues.settlePayout, { payoutId: payout.id }, { db: trx, startAfter: arrival })
      }
    })
  }

  async #settlePayout(payoutId: string): Promise<void> {
    await this.#kernel.transaction(async (trx) => {
      const payout = await trx.selectFrom('sandbox_payouts').selectAll().where('id', '=', payoutId).forUpdate().executeTakeFirst()
      if (!payout || payout.status !== 'in_transit') return
      const bank = await trx
        .selectFrom('sandbox_external_accounts')
        .select(['last4', 'payout_failure_code'])
        .where('account_id', '=', payout.account_id)
        .executeTakeFirst()
      const failure = bank?.payout_failure_code ? (payoutFailureMessages[bank.payout_failure_code] ?? 'The bank refused the payout.') : null
      const settled = await trx
        .updateTable('sandbox_payouts')
        .set({
          status: failure ? 'failed' : 'paid',
          failure_code: failure ? (bank?.payout_failure_code ?? null) : null,
          failure_message: failure,
          updated_at: this.#kernel.now(),
        })
        .where('id', '=', payoutId)
        .returningAll()
        .executeTakeFirstOrThrow()
      await this.#kernel.emit(trx, failure ? 'payout.failed' : 'payout.paid', payoutObject(settled), settled.account_id)
    })
  }

  /** Per currency: available (transfers in − payouts not failed) and in transit. */
  async #balances(trx: SandboxDb, accountId: string): Promise<Array<{ currency: string; available: number; inTransit: number }>> {
    // What each transfer brought, less what was taken back from it since (a reversal after a lost dispute).
    const transfers = await trx
      .selectFrom('sandbox_transfers')
      .select([
        'currency',
        sql<
          number | string
        >`sum(amount - coalesce((select sum(r.amount) from sandbox_transfer_reversals r where r.transfer_id = sandbox_transfers.id), 0))`.as(
          'amount',
        ),
      ])
      .where('destination_account', '=', accountId)
      .groupBy('currency')
      .execute()
    const payouts = await trx
      .selectFrom('sandbox_payouts')
      .select((eb) => ['currency', 'status', eb.fn.sum<number | string>('amount').as('amount')])
      .where('account_id', '=', accountId)
      .where('status', '!=', 'failed')
      .groupBy(['currency', 'status'])
      .execute()
    const currencies = [...new Set([...transfers, ...payouts].map((row) => row.currency))].sort()
    return currencies.map((currency) => {
      const credited = Number(transfers.find((row) => row.currency === currency)?.amount ?? 0)
      const paidOut = payouts.filter((row) => row.currency === currency).reduce((sum, row) => sum + Number(row.amount), 0)
      const inTransit = payouts
        .filter((row) => row.currency === currency && row.status === 'in_transit')
        .reduce((sum, row) => sum + Number(row.amount), 0)
      return { currency, available: credited - paidOut, inTransit }
    })
  }
}

function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    bankLast4: row.bank_last4,
    created: row.created_at,
    arrivalDate: row.arrival_date,
    failureMessage: row.failure_message,
    failureCode: row.failure_code,
  }
}

function payoutObject(row: PayoutRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'payout',
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    arrival_date: Math.floor(row.arrival_date.getTime() / 1000),
    created: Math.floor(row.created_at.getTime() / 1000),
    // The sandbox pays out on its schedule only, as Stripe's automatic payouts.
    automatic: true,
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    destination: `ba_****${row.bank_last4}`,
  }
}
