import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { MailAttachment } from '../../adapters/mailer/port.ts'
import type { Database } from '../../db/schema.ts'
import { findById } from '../transactions/transactions-repository.ts'
import { buildReceipt, isPaid, receiptFileName } from './receipt.ts'
import { renderReceiptPdfOffThread } from './receipt-pdf-thread.ts'

/**
 * The receipt as an e-mail attachment (issue 33: "attached to the release
 * e-mail"), made when the e-mail is sent, so it lists the movement the
 * e-mail announces: the state change committed its ledger entry before its
 * notification job could run. Null before the buyer has paid (a payment
 * sent straight back can close a sale that never was): there is nothing to
 * give a receipt for, and the e-mail goes without.
 */
export async function receiptAttachment(
  db: Kysely<Database>,
  transactionId: string,
  locale: Locale,
  now: Date,
): Promise<MailAttachment | null> {
  const row = await findById(db, transactionId)
  if (!isPaid(row)) return null
  return {
    filename: receiptFileName(row.id),
    contentType: 'application/pdf',
    content: await renderReceiptPdfOffThread(await buildReceipt(db, row, now), locale),
  }
}
