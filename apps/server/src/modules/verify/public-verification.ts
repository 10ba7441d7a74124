import type { PublicVerification } from '@pactum/contracts/verify'
import { verifyingClientIds } from '@pactum/domain/high-value'
import { escrowStandingOf } from '@pactum/domain/transactions/escrow-standing'
import { isVerifyCode } from '@pactum/domain/verify-code'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { maskedEmail } from './masked-email.ts'
import { findByVerifyCode, type VerifiedRow } from './verify-repository.ts'

/**
 * `GET /verify/{code}` (decision 114): whether Pactum holds, held or does
 * not yet hold a sale's money, for anyone with its link. A malformed code
 * is not looked up; it and an unknown one answer the same 404.
 */
export async function publicVerification(db: Kysely<Database>, code: string): Promise<PublicVerification> {
  const row = isVerifyCode(code) ? await findByVerifyCode(db, code) : undefined
  if (!row) throw new AppError('not_found', 'No sale has this verification code')
  return toPublicVerification(row)
}

const iso = (value: Date | null) => (value ? value.toISOString() : null)

export function toPublicVerification(row: VerifiedRow): PublicVerification {
  const standing = escrowStandingOf({
    kind: row.type === 'f2f' ? 'f2f' : 'online',
    status: row.status,
    price: row.price,
    charge: row.charge,
    amountHeld: row.amount_held,
    amountReleased: row.amount_released,
    amountRefunded: row.amount_refunded,
    timestamps: {
      paid: row.paid,
      deposit_paid: row.deposit_paid,
      funds_released: row.funds_released,
      cancelled_with_payment: row.cancelled_with_payment,
      cancelled_with_deposit: row.cancelled_with_deposit,
      payment_refunded: row.payment_refunded,
      deposit_refunded: row.deposit_refunded,
    },
  })
  return {
    state: standing.state,
    amount: standing.amount,
    currency: row.currency,
    created: row.created.toISOString(),
    paid: iso(standing.paid),
    released: iso(standing.released),
    refunded: iso(standing.refunded),
    buyer: party(row.buyer_first_name, row.buyer_email),
    seller: party(row.seller_first_name, row.seller_email),
    partner_name: partnerName(row),
  }
}

function party(firstName: string | null, email: string | null): PublicVerification['buyer'] {
  if (email === null) return null
  return { first_name: firstName?.trim() || null, email: maskedEmail(email) }
}

/** The marketplace's name when a partner's client made the sale; the product's own apps are Pactum itself. */
function partnerName(row: Pick<VerifiedRow, 'client_id' | 'client_name'>): string | null {
  if (row.client_id === null || (verifyingClientIds as readonly string[]).includes(row.client_id)) return null
  return row.client_name?.trim() || null
}
