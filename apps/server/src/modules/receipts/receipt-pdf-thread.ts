import type { Locale } from '@pactum/domain/locales'
import { PdfThread } from '../../pdf/pdf-thread.ts'
import type { Receipt } from './receipt.ts'

const thread = new PdfThread<{ receipt: Receipt; locale: Locale }>(new URL('./receipt-pdf-worker.ts', import.meta.url))

/**
 * renderReceiptPdf (receipt-pdf.ts), on the PDF thread: the same bytes,
 * without holding up the main thread. The thread is not stopped with the
 * server: it holds the process open only while it has work, and a closing
 * server first waits for its running jobs (and so for their receipts).
 */
export function renderReceiptPdfOffThread(receipt: Receipt, locale: Locale): Promise<Buffer> {
  return thread.render({ receipt, locale })
}
