import type { PartnerTransactionBody } from '@pactum/contracts/partner-transactions'
import { createF2fTransaction } from '@pactum/domain/transactions/f2f-state'
import { createOnlineTransaction } from '@pactum/domain/transactions/online-state'
import type { Party } from '@pactum/domain/transactions/kernel'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Config } from '../../config.ts'
import { uuidV7 } from '../../ids.ts'
import { invitationDepsOf, inviteGuests } from '../guests/guest-invitations.ts'
import { withFreshJoinCode } from '../transactions/create-transaction.ts'
import { insertTransaction, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { quoteOrRefuse } from '../transactions/quote.ts'
import { getClientHandoverSetting } from '../transactions/transactions-repository.ts'

type PartnerDeps = TransactionDeps & { config: Config; mailer: Mailer }

export interface PartnerTransactionCreation {
  row: TransactionRow
  invited: Record<Party, string | null>
}

/**
 * A partner client creates a transaction on behalf of its users, known to
 * Pactum only by e-mail (issue 35): each invited party gets their own claim
 * link (guest-invitations.ts: nothing is granted to an address until its
 * owner opens the link, and the invitation limits apply to the client).
 * There is no creator user. The invited party stands in the creator's place
 * (`creatorRole`; the seller when both are invited), so once they have
 * claimed they may still edit or cancel the offer before the other comes.
 * With one party invited, the other takes their place with the join code,
 * which the partner shows on its own site; with both, there is no code.
 * The fee is quoted here for card, as for a face-to-face deposit: the buyer
 * sees it before paying and may pick another method.
 */
export async function createPartnerTransaction(
  deps: PartnerDeps,
  client: { id: string; name: string },
  body: PartnerTransactionBody,
): Promise<PartnerTransactionCreation> {
  const invited: Record<Party, string | null> = { seller: body.seller_email ?? null, buyer: body.buyer_email ?? null }
  const invitations = (['seller', 'buyer'] as const).flatMap((role) => {
    const email = invited[role]
    return email === null ? [] : [{ role, email }]
  })
  const quote = quoteOrRefuse({ price: body.price, currency: body.currency, paymentMethod: 'card' })
  const settings = await getClientHandoverSetting(deps.db, client.id)
  const invitationDeps = await invitationDepsOf(deps)
  const create = (joinCode: string | null): Promise<TransactionRow> => {
    const now = deps.clock.now()
    const common = {
      creatorRole: invitations[0]!.role,
      creatorId: null,
      joinCode,
      description: body.description,
      currency: quote.currency,
      chargeCalculatorVersion: quote.chargeCalculatorVersion,
    }
    const state =
      body.type === 'online'
        ? createOnlineTransaction(
            { ...common, price: quote.price, charge: quote.charge, chargeSeller: quote.chargeSeller, paymentMethod: quote.paymentMethod },
            now,
          )
        : createF2fTransaction(
            {
              ...common,
              depositPrice: quote.price,
              depositCharge: quote.charge,
              depositChargeSeller: quote.chargeSeller,
              paymentMethod: quote.paymentMethod,
              sellerConfirmsHandover: settings.show_seller_confirm_handover,
            },
            now,
          )
    return insertTransaction(deps, state, { id: uuidV7(now), creatorId: null, clientId: client.id }, (trx, row) =>
      inviteGuests(
        invitationDeps,
        trx,
        row,
        { kind: 'client', id: client.id },
        invitations.map(({ role, email }) => ({
          role,
          email,
          language: body.invitation_language,
          fallbackLanguage: 'en_gb' as const,
          inviterFirstName: null,
          clientName: client.name,
          field: `${role}_email`,
        })),
      ),
    )
  }
  const row = invitations.length === 2 ? await create(null) : await withFreshJoinCode(create)
  return { row, invited }
}
