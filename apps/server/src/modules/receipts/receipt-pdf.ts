import type { Locale } from '@pactum/domain/locales'
import { grey, openPdf } from '../../pdf/pdf-document.ts'
import { type MessageKey, messages } from '../notifications/notification-messages.ts'
import type { Receipt } from './receipt.ts'

/**
 * Lays a receipt (receipt.ts) out as a PDF in the reader's language. The
 * transaction's facts use the case file's labels, so that both documents
 * name them alike; the rest is `receipt.*`.
 */
export async function renderReceiptPdf(receipt: Receipt, locale: Locale): Promise<Buffer> {
  const table = messages[locale]
  const label = (key: `${'caseFile' | 'receipt'}.${string}` & MessageKey, values: Record<string, string> = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
  const { transaction } = receipt
  const { doc, text, fact, heading, gap, when, money, finish } = openPdf({
    locale,
    currency: transaction.currency,
    title: `${label('receipt.title')} ${transaction.id}`,
    createdAt: receipt.generatedAt,
  })

  text(label('receipt.title'), { font: 'bold', size: 18 })
  text(`${label('caseFile.generatedAt')}: ${when(receipt.generatedAt)} · ${label('caseFile.timesInUtc')}`, { size: 9, color: grey })
  doc.moveDown(0.5)
  fact(label('caseFile.transaction'), transaction.id, 'mono')
  fact(label('caseFile.kind'), label(`caseFile.kind.${transaction.kind}`))
  fact(label('caseFile.status'), transaction.status)
  fact(label('caseFile.item'), transaction.description)
  fact(label('receipt.currency'), transaction.currency.toUpperCase())
  fact(label('caseFile.price'), money(transaction.price))
  fact(label('caseFile.buyerFee'), money(transaction.buyerFee))
  fact(label('caseFile.sellerFee'), money(transaction.sellerFee))
  if (transaction.buyer !== null) fact(label('caseFile.buyer'), transaction.buyer)
  if (transaction.seller !== null) fact(label('caseFile.seller'), transaction.seller)

  heading(label('receipt.section.payments'))
  for (const payment of receipt.payments) {
    text(`${label(`receipt.part.${payment.part}`)} · ${when(payment.at)}`, { font: 'bold' })
    fact(label('receipt.amount'), money(payment.amount))
    fact(label('receipt.feeIncluded'), money(payment.fee))
    if (payment.paymentMethod !== null) fact(label('receipt.paymentMethod'), payment.paymentMethod)
    if (payment.paymentReference !== null) fact(label('receipt.paymentReference'), payment.paymentReference, 'mono')
    fact(label('receipt.ledgerEntry'), payment.ledgerEntryId, 'mono')
    gap()
  }

  heading(label('receipt.section.payouts'))
  if (receipt.movements.length === 0) text(label('receipt.noPayouts'), { color: grey })
  for (const movement of receipt.movements) {
    text(`${label(`receipt.movement.${movement.kind}`)} · ${when(movement.at)}`, { font: 'bold' })
    if (movement.toBuyer !== 0) fact(label('receipt.toBuyer'), money(movement.toBuyer))
    if (movement.toSeller !== 0) fact(label('receipt.toSeller'), money(movement.toSeller))
    if (movement.feesKept !== 0) fact(label('receipt.feesKept'), money(movement.feesKept))
    fact(label('receipt.ledgerEntry'), movement.ledgerEntryId, 'mono')
    gap()
  }

  heading(label('receipt.section.terms'))
  for (const line of ['receipt.legal.escrow', 'receipt.legal.terms', 'receipt.legal.notInvoice'] as const) {
    text(label(line), { size: 9 })
  }

  return finish((page, pages) => `${label('caseFile.page', { page: String(page), pages: String(pages) })} · ${transaction.id}`)
}
