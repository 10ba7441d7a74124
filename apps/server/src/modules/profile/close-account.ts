import { randomUUID } from 'node:crypto'
import { isTerminal } from '@pactum/domain/transactions/transaction'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { ConnectedAccounts } from '../../adapters/payment-provider/connected-accounts-port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, fieldError } from '../../errors.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { retireBankLinkItems } from './bank-link-item-removal.ts'
import { deleteSignInAccount, eraseUserRecords, lockUserForClosing, pseudonymiseUser, transactionsOf } from './close-account-repository.ts'

export interface CloseAccountDeps {
  db: Kysely<Database>
  clock: Clock
  jobs: JobQueue
  connectedAccounts: Pick<ConnectedAccounts, 'findConnectedAccount' | 'getBalance'>
  /** The embedded sign-in's issuer, whose account (credentials, sessions) goes too; null with an external issuer. */
  embeddedIssuer: string | null
}

/**
 * Closes the signed-in person's account (issue 30). Refused while a sale
 * they take part in can still move money, or while their seller balance at
 * the payment provider is not paid out: closing must never strand money.
 *
 * What goes: the sign-in account (password, sessions, tokens), names,
 * address, date of birth, phone, bank details, identity document records,
 * shipping addresses, the terms' IP and browser, open listings, and the
 * bank link at the provider (its removal queued here). What stays,
 * and why (docs/decisions/035-closing-an-account.md, "Closing an account"): the user row's id,
 * pseudonymised, because the ledger's accounts, the transactions and their
 * history name it and the other parties keep their records of the sales;
 * amounts, dates and descriptions of finished sales (bookkeeping law).
 * The row's subject is replaced, so that signing up again with the same
 * address starts a new, empty user rather than reaching the closed one.
 */
export async function closeAccount(deps: CloseAccountDeps, user: CurrentUser, confirmEmail: string): Promise<void> {
  if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) {
    throw fieldError('body.confirm_email', 'type the e-mail address of this account to close it')
  }
  const connected = await deps.connectedAccounts.findConnectedAccount(user.id)
  if (connected) {
    const balance = await deps.connectedAccounts.getBalance(connected.id)
    const owed = [...balance.available, ...balance.pending].filter((money) => money.amount !== 0)
    if (owed.length > 0) {
      throw new AppError('account_has_balance', 'Your balance has not been paid out yet; close the account once it has arrived', {
        details: { balance: owed },
      })
    }
  }
  const now = deps.clock.now()
  await deps.db.transaction().execute(async (trx) => {
    // Under the row's lock: two closes, or a close beside a profile change, happen one after the other.
    const row = await lockUserForClosing(trx, user.id)
    if (!row || row.closed_at) throw new AppError('not_found', 'This account is closed already')
    const open = (await transactionsOf(trx, user.id)).filter(
      (transaction) => !isTerminal({ kind: transaction.type as TransactionKind, status: transaction.status }),
    )
    if (open.length > 0) {
      throw new AppError('account_has_open_transactions', 'Finish or cancel your open transactions before closing the account', {
        details: { transaction_ids: open.slice(0, 20).map((transaction) => transaction.id), count: open.length },
      })
    }

    await pseudonymiseUser(trx, user.id, `closed:${randomUUID()}`, now)
    await eraseUserRecords(trx, user.id, now)
    await retireBankLinkItems({ db: trx, jobs: deps.jobs }, user.id, now)

    if (deps.embeddedIssuer !== null && row.issuer === deps.embeddedIssuer) {
      await deleteSignInAccount(trx, row.subject)
    }
  })
}
