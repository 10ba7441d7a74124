import { parentPort } from 'node:worker_threads'
import type { Locale } from '@pactum/domain/locales'
import type { Receipt } from './receipt.ts'
import { renderReceiptPdf } from './receipt-pdf.ts'

/** The receipts' PDF thread (receipt-pdf-thread.ts, pdf/pdf-thread.ts): one receipt laid out per message. */
parentPort?.on('message', async ({ id, receipt, locale }: { id: number; receipt: Receipt; locale: Locale }) => {
  try {
    const pdf = await renderReceiptPdf(receipt, locale)
    const bytes = new Uint8Array(pdf)
    parentPort?.postMessage({ id, pdf: bytes }, [bytes.buffer])
  } catch (error) {
    parentPort?.postMessage({ id, error: (error as Error).message })
  }
})
