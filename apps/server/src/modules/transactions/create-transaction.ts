import type { CreateF2fTransactionBody } from '@pactum/contracts/f2f-transactions'
import type { CreateTransactionBody } from '@pactum/contracts/transactions'
import { generateJoinCode } from '@pactum/domain/join-code'
import { createF2fTransaction } from '@pactum/domain/transactions/f2f-state'
import { createOnlineTransaction } from '@pactum/domain/transactions/online-state'
import type { TransactionState } from '@pactum/domain/transactions/transaction'
import type { Locale } from '@pactum/domain/locales'
import { otherParty } from '@pactum/domain/transactions/kernel'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Config } from '../../config.ts'
import { AppError } from '../../errors.ts'
import { notificationLanguage } from '../profile/profile.ts'
import { invitationDepsOf, inviteGuests } from '../guests/guest-invitations.ts'
import { uuidV7 } from '../../ids.ts'
import { type CountedUse, usageLimit } from '../../usage-limits.ts'
import { randomBytesFromBatch } from '../../random-bytes.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { insertTransaction, type TransactionDeps } from './engine/apply-event.ts'
import { quoteOrRefuse, requireOffered, requireShownCharge } from './quote.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import { getLanguages } from './parties-repository.ts'
import { findClientHandoverSetting } from './transactions-repository.ts'

export type CreateDeps = TransactionDeps & { config: Config; mailer: Mailer }

/** Who the creator invites by e-mail instead of sharing a join code. */
interface GuestInvite {
  counterparty_email?: string | undefined
  invitation_language?: Locale | undefined
}

/**
 * Creates an online transaction as buyer or seller. The server recomputes
 * the fee and refuses if it differs from what the user was shown.
 */
export async function createTransaction(
  deps: CreateDeps,
  user: CurrentUser,
  body: CreateTransactionBody,
  clientId: string | null,
): Promise<TransactionRow> {
  const quote = quoteOrRefuse({ price: body.price, currency: body.currency, paymentMethod: body.payment_method ?? 'card' })
  requireOffered(deps.config, user, quote, { paymentMethodChosen: body.payment_method !== undefined })
  requireShownCharge(quote, { charge: body.charge, version: body.charge_calculator_version })
  return insertWithFreshJoinCode(deps, user, clientId, body, (joinCode, now) =>
    createOnlineTransaction(
      {
        creatorRole: body.role,
        creatorId: user.id,
        joinCode,
        description: body.description,
        price: quote.price,
        currency: quote.currency,
        charge: quote.charge,
        chargeSeller: quote.chargeSeller,
        chargeCalculatorVersion: quote.chargeCalculatorVersion,
        paymentMethod: body.payment_method ?? null,
      },
      now,
    ),
  )
}

/**
 * Creates a face-to-face transaction with its deposit priced (card until the
 * buyer picks a method). The total comes later, from the seller. Whether the
 * seller confirms the handover is the client's setting.
 */
export async function createF2fTransactionFor(
  deps: CreateDeps,
  user: CurrentUser,
  body: CreateF2fTransactionBody,
  clientId: string | null,
): Promise<TransactionRow> {
  const quote = quoteOrRefuse({ price: body.deposit_price, currency: body.currency, paymentMethod: 'card' }, 'deposit_price')
  requireOffered(deps.config, user, quote, { paymentMethodChosen: false })
  requireShownCharge(quote, { charge: body.deposit_charge, version: body.charge_calculator_version })
  const client = clientId ? await findClientHandoverSetting(deps.db, clientId) : undefined
  return insertWithFreshJoinCode(deps, user, clientId, body, (joinCode, now) =>
    createF2fTransaction(
      {
        creatorRole: body.role,
        creatorId: user.id,
        joinCode,
        description: body.description,
        currency: quote.currency,
        depositPrice: quote.price,
        depositCharge: quote.charge,
        depositChargeSeller: quote.chargeSeller,
        chargeCalculatorVersion: quote.chargeCalculatorVersion,
        // The deposit's fee was quoted for card; the buyer may pick another method before paying.
        paymentMethod: quote.paymentMethod,
        sellerConfirmsHandover: client?.show_seller_confirm_handover ?? true,
      },
      now,
    ),
  )
}

/**
 * A collision with a live code is astronomically rare (31^8); the unique
 * index catches it and we draw again. A guest transaction has no code: its
 * invitation's link is the only way in.
 */
async function insertWithFreshJoinCode(
  deps: CreateDeps,
  user: CurrentUser,
  clientId: string | null,
  guest: GuestInvite,
  create: (joinCode: string | null, now: Date) => TransactionState,
): Promise<TransactionRow> {
  // A user creates at most so many transactions an hour (issue 30), counted with the insert.
  const counted: CountedUse = { limit: usageLimit(deps.config.limits, 'transaction_creates'), subject: `user:${user.id}` }
  const email = guest.counterparty_email
  if (email !== undefined) {
    if (email === user.email.toLowerCase())
      throw new AppError('validation_failed', 'Invite the other party, not yourself', { details: { field: 'counterparty_email' } })
    const now = deps.clock.now()
    const state = create(null, now)
    const language = await senderLanguage(deps, user)
    const invitationDeps = await invitationDepsOf(deps)
    return insertTransaction(deps, state, { id: uuidV7(now), creatorId: user.id, clientId, counted }, (trx, row) =>
      inviteGuests(invitationDeps, trx, row, { kind: 'user', id: user.id }, [
        {
          role: otherParty(state.creatorRole),
          email,
          language: guest.invitation_language,
          fallbackLanguage: language,
          inviterFirstName: user.firstName,
          clientName: null,
          field: 'counterparty_email',
        },
      ]),
    )
  }
  return withFreshJoinCode((joinCode) => {
    const now = deps.clock.now()
    return insertTransaction(deps, create(joinCode, now), { id: uuidV7(now), creatorId: user.id, clientId, counted })
  })
}

/** `insert` with a new join code, drawn again if it collides with a live one (see above). */
export async function withFreshJoinCode<T>(insert: (joinCode: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insert(generateJoinCode(randomBytesFromBatch))
    } catch (error) {
      if (!String((error as Error).message).includes('transactions_join_code_key') || attempt === 4) throw error
    }
  }
}

async function senderLanguage(deps: CreateDeps, user: CurrentUser): Promise<Locale> {
  return notificationLanguage(await getLanguages(deps.db, user.id))
}
