import { describe, expect, it } from 'vitest'
import type { Receipt } from './receipt.ts'
import { renderReceiptPdf } from './receipt-pdf.ts'
import { renderReceiptPdfOffThread } from './receipt-pdf-thread.ts'

const at = new Date('2026-12-07T10:00:00Z')
const receipt: Receipt = {
  generatedAt: at,
  transaction: {
    id: '0193a0b0-0000-7000-8000-000000000001',
    kind: 'online',
    status: 'funds_released',
    description: 'Rower szosowy, łódź i ćma',
    currency: 'pln',
    price: 25_000,
    buyerFee: 500,
    sellerFee: 500,
    buyer: 'bea@example.com',
    seller: 'sam@example.com',
  },
  payments: [
    {
      part: 'payment',
      at,
      amount: 25_500,
      fee: 500,
      paymentMethod: 'card',
      paymentReference: 'pi_123',
      ledgerEntryId: '0193a0b0-0000-7000-8000-000000000002',
    },
  ],
  movements: [
    { kind: 'release', at, toBuyer: 0, toSeller: 24_500, feesKept: 1_000, ledgerEntryId: '0193a0b0-0000-7000-8000-000000000003' },
  ],
}

describe('a receipt laid out on the PDF thread', () => {
  it('is the same document as one laid out on the main thread, in each language asked for', async () => {
    for (const locale of ['pl_pl', 'en_gb'] as const) {
      const [offThread, here] = await Promise.all([renderReceiptPdfOffThread(receipt, locale), renderReceiptPdf(receipt, locale)])
      expect(offThread.equals(here)).toBe(true)
    }
  })
})
