import { escrowStates } from '@pactum/domain/transactions/escrow-standing'
import { z } from 'zod'
import { amountSchema, currencyCodeSchema } from './transactions.ts'

/**
 * `GET /verify/{code}` (issue 35 item 4, docs/decisions/114-escrow-you-can-check.md):
 * what anyone holding a sale's verification link may read, and nothing
 * more. Strict, so that a field added on the server fails its own response
 * check instead of reaching the public: no ids, no description, no
 * addresses, no full e-mail addresses, no tracking, no join code.
 */
export const escrowStateSchema = z.enum(escrowStates).meta({
  description:
    '`awaiting_payment`: Pactum holds nothing yet; `held`: Pactum holds the money; `released`: paid out to the seller; `refunded`: paid back to the buyer; `cancelled`: ended before anyone paid',
})
export type EscrowStateName = z.infer<typeof escrowStateSchema>

export const verifyCodeParams = z.object({ code: z.string().max(64).meta({ description: 'the code of the verification link' }) })

const publicParty = z
  .object({
    first_name: z.string().nullable(),
    email: z
      .string()
      .meta({ description: 'masked: the first letter of the name and of the domain, and the top-level domain', example: 'j***@e***.com' }),
  })
  .strict()
  .nullable()
  .meta({ description: 'null until that party has joined' })

const publicDate = z.string().nullable()

export const publicVerificationSchema = z
  .object({
    state: escrowStateSchema,
    amount: amountSchema.meta({
      description:
        'held, released or refunded: what the buyer paid into escrow; before that, what the buyer is to pay (the price, or the deposit, and the buyer’s fee)',
    }),
    currency: currencyCodeSchema,
    created: z.string(),
    paid: publicDate.meta({ description: 'when the buyer’s (first) payment was held' }),
    released: publicDate.meta({ description: 'when the money was released to the seller' }),
    refunded: publicDate.meta({ description: 'when the money went back to the buyer' }),
    buyer: publicParty,
    seller: publicParty,
    partner_name: z.string().nullable().meta({ description: 'the marketplace the sale was made on, when it was a partner’s' }),
  })
  .strict()
  .meta({ id: 'PublicVerification' })
export type PublicVerification = z.infer<typeof publicVerificationSchema>
