import type { Json, StripeStore } from './store.ts'
import { notUsedByPactum } from './unused-fields.ts'
import { type FormObject, invalidRequest, missing, record, text } from './wire.ts'

/*
 * The seller's side of the Stripe fake's money: transfers from a charge to
 * a connected account, the balance they make, and payouts of it to the
 * account's bank.
 */

/** Stripe's descriptions of its payout failure codes (API reference, Payouts: "Payout failures"). */
const payoutFailureMessages: Record<string, string> = {
  no_account: 'The bank account details on file are probably incorrect. No bank account could be located with those details.',
  account_closed: 'The bank account has been closed.',
  insufficient_funds: 'Your Stripe account has insufficient funds to cover the payout.',
  debit_not_authorized: 'Debit transactions are not approved on the bank account.',
  invalid_currency: 'The bank was unable to process this payout because of its currency.',
}

export function fakeTransfers(store: StripeStore) {
  const { charges, transfers, payouts, newId, seconds, emit, accountOf } = store
  /** What Stripe took from an account's balance on its own (a dispute or refund the account carries, a fee). */
  const debits: Array<{ account: string; amount: number; currency: string }> = []

  function createTransfer(params: FormObject): Json {
    const amount = Number(params.amount)
    const currency = text(params.currency)
    const destination = text(params.destination) ?? ''
    if (!Number.isSafeInteger(amount) || amount <= 0 || !currency) throw invalidRequest('Invalid amount or currency.', { param: 'amount' })
    accountOf(destination, 'destination')
    const sourceId = text(params.source_transaction)
    if (sourceId) {
      const charge = charges.get(sourceId)
      if (!charge || charge.status !== 'succeeded') throw missing('charge', sourceId, 'source_transaction')
      // A transfer from a charge is in the currency the charge settled in (its balance transaction's), which is the
      // platform's settlement currency, not necessarily the buyer's; so is the limit of what is left of it.
      const settled = store.balanceTransactions.get(charge.balance_transaction as string) as Json
      if (settled.currency !== currency) {
        throw invalidRequest(
          `The currency of source_transaction's balance transaction (${settled.currency as string}) must be the same as the transfer currency (${currency}).`,
          { param: 'currency' },
        )
      }
      const transferred = [...transfers.values()]
        .filter((transfer) => transfer.source_transaction === sourceId)
        .reduce((sum, transfer) => sum + (transfer.amount as number), 0)
      const refunded = Math.round(((settled.amount as number) * (charge.amount_refunded as number)) / (charge.amount as number))
      if (amount > (settled.amount as number) - refunded - transferred) {
        throw invalidRequest('The transfer amount exceeds what is left of the source transaction.', {
          code: 'charge_exceeds_source_limit',
          param: 'amount',
        })
      }
    }
    const transferId = newId('tr')
    const transfer: Json = {
      id: transferId,
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: store.balanceTransactionFor(transferId, 'transfer', -amount, currency).id,
      created: seconds(),
      currency,
      description: text(params.description) ?? null,
      destination,
      destination_payment: newId('py'),
      livemode: false,
      metadata: record(params.metadata),
      reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${transferId}/reversals` },
      reversed: false,
      source_transaction: sourceId ?? null,
      source_type: 'card',
      transfer_group: text(params.transfer_group) ?? null,
    }
    transfers.set(transfer.id as string, transfer)
    emit('transfer.created', transfer)
    return transfer
  }

  function balanceOf(accountId: string): Json {
    const totals = new Map<string, number>()
    for (const transfer of transfers.values()) {
      // What is left of each transfer after its reversals.
      if (transfer.destination === accountId) {
        const kept = (transfer.amount as number) - (transfer.amount_reversed as number)
        totals.set(transfer.currency as string, (totals.get(transfer.currency as string) ?? 0) + kept)
      }
    }
    for (const payout of payouts.values()) {
      if (store.payoutAccounts.get(payout.id as string) === accountId && payout.status !== 'failed')
        totals.set(payout.currency as string, (totals.get(payout.currency as string) ?? 0) - (payout.amount as number))
    }
    for (const debit of debits) {
      if (debit.account === accountId) totals.set(debit.currency, (totals.get(debit.currency) ?? 0) - debit.amount)
    }
    return { object: 'balance', available: [...totals].map(([currency, amount]) => ({ amount, currency })), pending: [], livemode: false }
  }

  /**
   * Stripe takes money from the account's balance, which may leave `available` below zero (Stripe's "negative
   * balances": the platform carries them for accounts whose losses it is liable for, and Stripe recovers them from
   * the account's next payouts, which it skips meanwhile).
   */
  function debitBalance(accountId: string, amount: number, currency: string): void {
    accountOf(accountId)
    debits.push({ account: accountId, amount, currency })
  }

  /**
   * Stripe pays the account's available balance out to its bank account (an automatic payout, on its schedule).
   * A bank account a payout failed to is `errored`, and "scheduled payouts are stopped until external account
   * details are updated" (support.stripe.com/questions/managing-connect-payout-failures): none is made to it.
   */
  function payOut(accountId: string): Json[] {
    const account = accountOf(accountId)
    const bank = ((account.external_accounts as Json).data as Json[]).find((candidate) => candidate.default_for_currency)
    if (!bank || !account.payouts_enabled || bank.status === 'errored') return []
    const made: Json[] = []
    for (const entry of balanceOf(accountId).available as Array<{ amount: number; currency: string }>) {
      if (entry.amount <= 0) continue
      const payoutId = newId('po')
      const payout: Json = {
        id: payoutId,
        object: 'payout',
        amount: entry.amount,
        currency: entry.currency,
        status: 'in_transit',
        automatic: true,
        destination: bank.id,
        arrival_date: seconds() + 86_400,
        // The connected account's own balance transaction, not the platform's (which the fake lists).
        balance_transaction: newId('txn'),
        failure_balance_transaction: null,
        failure_code: null,
        failure_message: null,
        created: seconds(),
        livemode: false,
        metadata: {},
        method: 'standard',
        reconciliation_status: 'not_applicable',
        source_type: 'card',
        trace_id: { status: 'pending', value: null },
        type: 'bank_account',
        ...notUsedByPactum.payout,
      }
      payouts.set(payoutId, payout)
      store.payoutAccounts.set(payoutId, accountId)
      emit('payout.created', payout, accountId)
      made.push(payout)
    }
    return made
  }

  /**
   * The bank answers the account's payouts in transit: paid, or failed with the test number's code (Stripe's
   * Payout: `failure_code`, `failure_message`; the money returns to the balance, which counts failed payouts out).
   * A failure errors the bank account (`status: errored`, `account.external_account.updated`).
   */
  function payoutsArrive(accountId: string): Json[] {
    const account = accountOf(accountId)
    const banks = (account.external_accounts as Json).data as Json[]
    const arrived: Json[] = []
    for (const payout of payouts.values()) {
      if (store.payoutAccounts.get(payout.id as string) !== accountId || payout.status !== 'in_transit') continue
      const failure = store.payoutFailures.get(payout.destination as string)
      if (failure) {
        Object.assign(payout, {
          status: 'failed',
          // The money coming back to the account's balance, on the account's own balance.
          failure_balance_transaction: newId('txn'),
          failure_code: failure,
          failure_message: payoutFailureMessages[failure] ?? null,
        })
        emit('payout.failed', payout, accountId)
        const bank = banks.find((candidate) => candidate.id === payout.destination)
        if (bank && bank.status !== 'errored') {
          bank.status = 'errored'
          emit('account.external_account.updated', bank, accountId)
        }
      } else {
        Object.assign(payout, {
          status: 'paid',
          reconciliation_status: 'not_applicable',
          trace_id: { status: 'supported', value: `TRACE${payout.id as string}` },
        })
        emit('payout.paid', payout, accountId)
      }
      arrived.push(payout)
    }
    return arrived
  }

  /** The account's payouts, newest first, each with its bank account when the request expands `data.destination`. */
  function payoutsOf(account: string | undefined, expand: string[]): Json[] {
    return [...payouts.values()]
      .filter((payout) => account !== undefined && store.payoutAccounts.get(payout.id as string) === account)
      .reverse()
      .map((payout) => {
        const bank = ((accountOf(account as string).external_accounts as Json).data as Json[]).find(
          (candidate) => candidate.id === payout.destination,
        )
        return expand.includes('data.destination') && bank ? { ...payout, destination: bank } : payout
      })
  }

  return { createTransfer, balanceOf, debitBalance, payOut, payoutsArrive, payoutsOf }
}
