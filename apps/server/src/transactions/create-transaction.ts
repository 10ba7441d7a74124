import { randomBytes } from 'node:crypto'
import type { CreateTransactionBody } from '@pactum/contracts/transactions'
import { isHighValue } from '@pactum/domain/high-value'
import { generateJoinCode } from '@pactum/domain/join-code'
import type { Config } from '../config.ts'
import { AppError } from '../http/app-error.ts'
import { uuidV7 } from '../ids.ts'
import type { CurrentUser } from '../services/users.ts'
import type { TransactionDeps } from './apply-online-event.ts'
import { quoteOrRefuse, requireShownCharge } from './quote.ts'
import type { TransactionRow } from './transaction-view.ts'
import { userOffer } from './user-offer.ts'

/**
 * Creates an online transaction as buyer or seller. The server recomputes
 * the fee and refuses if it differs from what the user was shown.
 */
export async function createTransaction(
  deps: TransactionDeps & { config: Config },
  user: CurrentUser,
  body: CreateTransactionBody,
  clientId: string | null,
): Promise<TransactionRow> {
  const offer = userOffer(deps.config, user)
  const paymentMethod = body.payment_method ?? 'card'
  const quote = quoteOrRefuse({ price: body.price, currency: body.currency, paymentMethod })
  if (!offer.currencies.includes(quote.currency)) {
    throw new AppError('unsupported_currency', 'This currency is not available to you', { details: { field: 'currency' } })
  }
  if (!offer.paymentMethods.includes(quote.paymentMethod)) {
    throw new AppError('invalid_payment_method', 'This payment method is not available to you', {
      details: { field: 'payment_method' },
    })
  }
  requireShownCharge(quote, { charge: body.charge, version: body.charge_calculator_version })

  const now = deps.clock.now()
  // A collision with a live code is astronomically rare (31^8); the unique
  // index catches it and we draw again.
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await deps.db
        .insertInto('transactions')
        .values({
          id: uuidV7(now),
          type: 'online',
          status: 'created',
          creator_id: user.id,
          creator_role: body.role,
          buyer_id: body.role === 'buyer' ? user.id : null,
          seller_id: body.role === 'seller' ? user.id : null,
          price: quote.price,
          charge: quote.charge,
          charge_seller: quote.chargeSeller,
          charge_calculator_version: quote.chargeCalculatorVersion,
          currency: quote.currency,
          payment_method: body.payment_method ?? null,
          description: body.description,
          join_code: generateJoinCode((n) => randomBytes(n)),
          client_id: clientId,
          high_value: isHighValue(quote.price, quote.currency),
          created: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    } catch (error) {
      if (!String((error as Error).message).includes('transactions_join_code_key') || attempt === 4) throw error
    }
  }
  throw new Error('unreachable')
}
