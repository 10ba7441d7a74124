import type { PartnerGuestTransactionBody } from '@pactum/contracts/guest-transactions'
import { createF2fTransaction } from '@pactum/domain/transactions/f2f-state'
import { createOnlineTransaction } from '@pactum/domain/transactions/online-state'
import type { Party } from '@pactum/domain/transactions/kernel'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Config } from '../../config.ts'
import { uuidV7 } from '../../ids.ts'
import { insertTransaction, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { inviteGuests } from './guest-invitations.ts'
import { stopLinkKey } from './invitation-stops.ts'
import { quoteOrRefuse } from '../transactions/quote.ts'
import { getClientHandoverSetting } from '../transactions/transactions-repository.ts'

type PartnerDeps = TransactionDeps & { config: Config; mailer: Mailer }

/**
 * A partner client creates a transaction between two of its users, both
 * known to Pactum only by e-mail: each gets their own claim link, and the
 * transaction is joined once both have claimed. There is no creator user;
 * the seller stands in the creator's place (creatorRole), so once they have
 * claimed they may still edit or cancel the offer before the buyer comes.
 * The fee is quoted here for card, as for a face-to-face deposit: the buyer
 * sees it before paying and may pick another method.
 */
export async function createPartnerGuestTransaction(
  deps: PartnerDeps,
  client: { id: string; name: string },
  body: PartnerGuestTransactionBody,
): Promise<TransactionRow> {
  const quote = quoteOrRefuse({ price: body.price, currency: body.currency, paymentMethod: 'card' })
  const settings = await getClientHandoverSetting(deps.db, client.id)
  const now = deps.clock.now()
  const common = {
    creatorRole: 'seller' as const,
    creatorId: null,
    joinCode: null,
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
  const invitations: Array<[Party, string]> = [
    ['seller', body.seller_email],
    ['buyer', body.buyer_email],
  ]
  const invitationDeps = {
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    supportEmail: deps.config.supportEmail,
    limits: deps.config.limits.invitations,
    stopKey: await stopLinkKey(deps.db),
  }
  return insertTransaction(deps, state, { id: uuidV7(now), creatorId: null, clientId: client.id }, (trx, row) =>
    inviteGuests(
      invitationDeps,
      trx,
      row,
      { kind: 'client', id: client.id },
      invitations.map(([role, email]) => ({
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
