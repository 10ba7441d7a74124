import type { OptionalEmailCategory } from '@pactum/contracts/notification-preferences'
import type { CatalogueTemplate } from './notification-messages.ts'

/**
 * Which e-mails a person may turn off (decision 101 gives each one's reason).
 * `always`: the e-mail says money moved, is held or is asked for, the sale
 * ended, or asks for an action whose delay can cost money (a complaint
 * window, a case); those go out whatever the person chose. The others
 * belong to a category the Account page lists. A Record, so a template
 * added to the catalogue does not compile until someone has decided.
 */
export type EmailCategory = OptionalEmailCategory | 'always'

export const templateCategories: Record<CatalogueTemplate, EmailCategory> = {
  // Money is taken, held, asked for, released or given back.
  paid: 'always',
  payment_failed: 'always',
  f2f_payment_failed: 'always',
  deposit_paid: 'always',
  priced: 'always',
  remainder_paid: 'always',
  funds_released: 'always',
  cancelled_with_payment: 'always',
  payment_refunded: 'always',
  cancelled_with_deposit: 'always',
  deposit_refunded: 'always',
  payment_returned: 'always',
  // A clock runs that decides where the money goes: the complaint window, a problem or a case.
  delivered: 'always',
  handover_confirmed: 'always',
  order_issue: 'always',
  complained: 'always',
  settlement_offered: 'always',
  settlement_declined: 'always',
  case_escalated: 'always',
  // Money held or taken back: never optional.
  chargeback_opened: 'always',
  chargeback_won: 'always',
  chargeback_lost: 'always',
  chargeback_recovered: 'always',
  case_settled: 'always',
  case_decided: 'always',
  case_message_received: 'always',
  // The sale is over (or never starts): nobody should ship or hand over anything.
  rejected: 'always',
  listing_rejected: 'always',
  cancelled: 'always',
  cancelled_by_partner: 'always',
  f2f_cancelled: 'always',

  message_received: 'messages',

  // A nudge with no deadline behind it: nothing is lost by seeing it later on the transaction page.
  receipt_confirmation_requested: 'reminders',
  handover_awaiting_seller: 'reminders',

  // How the sale goes on, before money is at stake or while it is safely held.
  joined: 'updates',
  f2f_joined: 'updates',
  listing_purchased: 'updates',
  listing_accepted: 'updates',
  tracked: 'updates',
  tracking_deadline_extended: 'updates',
  deposit_accepted: 'updates',
  remainder_skipped: 'updates',
}

export function categoryOf(template: CatalogueTemplate): EmailCategory {
  return templateCategories[template]
}
