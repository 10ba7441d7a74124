import { pdfDocumentRoutes } from '../transactions/routes/document-routes.ts'
import { buildReceipt, receiptFileName } from './receipt.ts'
import { renderReceiptPdfOffThread } from './receipt-pdf-thread.ts'

/**
 * GET …/receipt (issue 33): each party's for their own transaction under
 * their kind's prefix (others 404), and the admin's for any.
 */
export function receiptRoutes() {
  return pdfDocumentRoutes({
    segment: 'receipt',
    what: 'The receipt',
    summary: {
      party: 'The receipt as a PDF (either party, once paid)',
      admin: 'The receipt as a PDF (any paid transaction)',
    },
    description:
      'One PDF with the parties, the item, the price and fees, every payment received (amount, fee, payment method, ' +
      "the provider's payment reference, the ledger entry) and every release, refund or split so far (to whom, how much, " +
      'the ledger entry), and the legal lines of the terms. Only once the buyer has paid (online: the payment; ' +
      'face to face: the deposit); 409 `not_paid` before.',
    fileName: receiptFileName,
    render: async (db, row, _reader, now, locale) => renderReceiptPdfOffThread(await buildReceipt(db, row, now), locale),
  })
}
