import { formatMoney, type CurrencyCode } from '@pactum/domain/currencies'
import type { Kysely } from 'kysely'
import type { DisputeEvidence } from '../../adapters/payment-provider/payments-port.ts'
import type { Database } from '../../db/schema.ts'
import { eventsOf } from '../admin/admin-repository.ts'
import { allMessages } from '../conversation/messages-repository.ts'
import { buildCaseFile } from '../disputes/case-file.ts'
import { renderCaseFilePdf } from '../disputes/case-file-pdf.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'

/**
 * What Pactum answers the buyer's bank with (docs/decisions/109): the sale's
 * own record, nothing an admin types. The timeline of every step, the
 * tracking the carrier reported, the parties' conversation, and, where the
 * buyer complained, the case file as a PDF. Banks read English; the parties'
 * messages go as written. Admins' identities stay out, as in the parties'
 * copy of the case file.
 */
export async function buildDisputeEvidence(db: Kysely<Database>, row: TransactionRow, now: Date): Promise<DisputeEvidence> {
  const [events, messages] = await Promise.all([eventsOf(db, row.id), allMessages(db, row.id)])
  const money = (amount: number) => formatMoney(amount, row.currency as CurrencyCode, 'en-GB')
  const timeline = events.map((event) => {
    const moved = event.from_status !== event.to_status ? ` (${event.from_status ?? 'new'} → ${event.to_status})` : ''
    return `${event.created_at.toISOString()} ${event.event} by ${event.actor_kind}${moved}`
  })
  const conversation = messages.map((message) => {
    const text = message.text ?? ''
    const attachment = message.attachment_name ? ` [attachment: ${message.attachment_name}, sha256 ${message.attachment_sha256}]` : ''
    return `${message.created_at.toISOString()} ${message.author_role}: ${text}${attachment}`
  })
  const tracking =
    row.tracking_carrier && row.tracking_code
      ? [
          `Shipped with ${row.tracking_carrier}, tracking number ${row.tracking_code}.`,
          row.delivered ? `Delivered ${row.delivered.toISOString()}.` : '',
        ]
      : []
  const text = [
    `Pactum escrow sale ${row.id}: the buyer's payment was held by Pactum and released to the seller only after delivery and the buyer's complaint window.`,
    `Price ${money(row.price)}; held ${money(row.amount_held)}; released ${money(row.amount_released)}; refunded ${money(row.amount_refunded)}.`,
    ...tracking,
    '',
    'Timeline:',
    ...timeline,
    '',
    'Conversation between buyer and seller:',
    ...(conversation.length > 0 ? conversation : ['(none)']),
  ].join('\n')
  return {
    productDescription: row.description,
    uncategorizedText: text,
    shippingCarrier: row.tracking_carrier,
    shippingTrackingNumber: row.tracking_code,
    caseFile: row.complaint_description
      ? { fileName: `pactum-case-${row.id}.pdf`, content: await renderCaseFilePdf(await buildCaseFile(db, row, 'party', now), 'en_gb') }
      : null,
  }
}
