import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { formatMoney } from '@pactum/domain/currencies'
import { type Locale, toLanguageTag } from '@pactum/domain/locales'
import PDFDocument from 'pdfkit'
import { type MessageKey, messages } from '../notifications/notification-messages.ts'
import type { CaseFile } from './case-file.ts'

/**
 * Lays a case file (case-file.ts) out as a PDF in the reader's language.
 * User texts come in any of our seven languages, so the PDF embeds DejaVu
 * Sans (from an npm package, subset to the glyphs used) rather than the
 * standard PDF fonts, whose WinAnsi encoding has no ł, ć, č or ž. The font is
 * resolved through the package, not read from /usr/share: a fresh machine
 * may have no system fonts.
 */

const require = createRequire(import.meta.url)
type FontName = 'regular' | 'bold' | 'mono'
const fontFiles: Record<FontName, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  mono: 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
}
let fonts: Record<FontName, Buffer> | null = null
/** Read once per process (about 1.4 MB together); pdfkit embeds only the glyphs a file uses. */
function loadFonts(): Record<FontName, Buffer> {
  fonts ??= {
    regular: readFileSync(require.resolve(fontFiles.regular)),
    bold: readFileSync(require.resolve(fontFiles.bold)),
    mono: readFileSync(require.resolve(fontFiles.mono)),
  }
  return fonts
}

const margin = 50
const grey = '#555555'

export async function renderCaseFilePdf(file: CaseFile, locale: Locale): Promise<Buffer> {
  const table = messages[locale]
  const label = (key: `caseFile.${string}` & MessageKey, values: Record<string, string> = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
  const tag = toLanguageTag(locale)
  const dateFormat = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
  const when = (date: Date | string | null) => (date === null ? '—' : dateFormat.format(new Date(date)))
  const money = (amount: number) => formatMoney(amount, file.transaction.currency, tag)
  const size = (bytes: number) =>
    bytes < 1000
      ? new Intl.NumberFormat(tag, { style: 'unit', unit: 'byte' }).format(bytes)
      : new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1 }).format(bytes / 1000)
  const actor = (kind: string) => (isActor(kind) ? label(`caseFile.actor.${kind}`) : kind)

  const doc = new PDFDocument({
    size: 'A4',
    margin,
    bufferPages: true,
    lang: tag,
    info: { Title: `${label('caseFile.title')} ${file.transaction.id}`, Author: 'Pactum', CreationDate: file.generatedAt },
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const loaded = loadFonts()
  for (const name of Object.keys(loaded) as FontName[]) doc.registerFont(name, loaded[name])

  const text = (value: string, options: { font?: FontName; size?: number; color?: string } = {}) =>
    doc
      .font(options.font ?? 'regular')
      .fontSize(options.size ?? 10)
      .fillColor(options.color ?? 'black')
      .text(value)
  const fact = (name: string, value: string, font: FontName = 'regular') => {
    doc.font('bold').fontSize(10).fillColor('black').text(`${name}: `, { continued: true }).font(font).text(value)
  }
  const heading = (value: string) => {
    doc.moveDown(0.8)
    text(value, { font: 'bold', size: 13 })
    doc.moveDown(0.3)
  }
  const gap = () => doc.moveDown(0.5)

  text(label('caseFile.title'), { font: 'bold', size: 18 })
  text(`${label('caseFile.generatedAt')}: ${when(file.generatedAt)} · ${label('caseFile.timesInUtc')}`, { size: 9, color: grey })
  doc.moveDown(0.5)
  const { transaction } = file
  fact(label('caseFile.transaction'), transaction.id, 'mono')
  fact(label('caseFile.kind'), label(`caseFile.kind.${transaction.kind}`))
  fact(label('caseFile.status'), transaction.status)
  fact(label('caseFile.item'), transaction.description)
  fact(label('caseFile.price'), money(transaction.price))
  fact(label('caseFile.buyerFee'), money(transaction.buyerFee))
  fact(label('caseFile.sellerFee'), money(transaction.sellerFee))
  if (transaction.buyer !== null) fact(label('caseFile.buyer'), transaction.buyer)
  if (transaction.seller !== null) fact(label('caseFile.seller'), transaction.seller)

  heading(label('caseFile.section.case'))
  const dispute = file.case
  fact(label('caseFile.reason'), label(`caseFile.reason.${dispute.reason}`))
  fact(label('caseFile.openedAt'), when(dispute.opened_at))
  fact(label('caseFile.responseDeadline'), when(dispute.response_deadline))
  fact(label('caseFile.summaryDue'), when(dispute.summary_due))
  fact(label('caseFile.finalAnswerDue'), when(dispute.final_answer_due))
  fact(label('caseFile.escalatedAt'), when(dispute.escalated_at))
  fact(label('caseFile.description'), dispute.description)

  heading(label('caseFile.section.offers'))
  if (file.offers.length === 0) text(label('caseFile.noOffers'), { color: grey })
  for (const offer of file.offers) {
    text(`${when(offer.made_at)} · ${label('caseFile.by')}: ${actor(offer.by)}`, { font: 'bold' })
    text(
      `${label('caseFile.refundToBuyer')}: ${money(offer.refund_to_buyer)} · ${label('caseFile.releaseToSeller')}: ${money(offer.release_to_seller)}`,
    )
    text(
      `${label('caseFile.offerOutcome')}: ${label(`caseFile.offerOutcome.${offer.outcome}`)}` +
        (offer.answered_at ? ` · ${label('caseFile.answeredAt')}: ${when(offer.answered_at)}` : ''),
    )
    if (offer.note) fact(label('caseFile.note'), offer.note)
    gap()
  }

  heading(label('caseFile.section.timeline'))
  for (const step of file.timeline) {
    const by = step.actorEmail ? `${actor(step.actorKind)} (${step.actorEmail})` : actor(step.actorKind)
    text(`${when(step.at)} · ${step.event} · ${by}`, { font: 'bold', size: 9 })
    text(`${label('caseFile.change')}: ${step.fromStatus ?? '—'} → ${step.toStatus}`, { size: 9 })
    if (step.reason) text(step.reason, { size: 9, color: grey })
    doc.moveDown(0.3)
  }

  heading(label('caseFile.section.messages'))
  if (file.messages.length === 0) text(label('caseFile.noMessages'), { color: grey })
  for (const message of file.messages) {
    text(`${when(message.at)} · ${actor(message.authorRole)}`, { font: 'bold' })
    if (message.text) text(message.text)
    const { attachment } = message
    if (attachment) {
      text(`${label('caseFile.attachment')}: ${attachment.name} (${attachment.contentType}, ${size(attachment.size)})`, { color: grey })
      text(`SHA-256: ${attachment.sha256}`, { font: 'mono', size: 8, color: grey })
    }
    gap()
  }

  heading(label('caseFile.section.evidence'))
  text(label('caseFile.evidenceIntro'), { size: 9, color: grey })
  doc.moveDown(0.3)
  if (file.evidence.length === 0) text(label('caseFile.noEvidence'), { color: grey })
  for (const item of file.evidence) {
    text(`${label('caseFile.file')}: ${item.name}`, { font: 'bold' })
    text(`${item.contentType} · ${label('caseFile.size')}: ${size(item.size)} · ${label('caseFile.received')}: ${when(item.receivedAt)}`)
    text(`SHA-256: ${item.sha256}`, { font: 'mono', size: 8 })
    if (!item.inHistory) text(label('caseFile.notInHistory'), { color: '#b00020' })
    gap()
  }

  heading(label('caseFile.section.decision'))
  const { outcome } = file
  if (outcome === null) text(label('caseFile.noDecision'))
  else {
    text(label(`caseFile.outcome.${outcome.kind}`), { font: 'bold' })
    fact(label('caseFile.decidedAt'), when(outcome.at))
    fact(label('caseFile.amountRefunded'), money(outcome.amountRefunded))
    fact(label('caseFile.amountReleased'), money(outcome.amountReleased))
    if (outcome.reason) fact(label('caseFile.decisionReason'), outcome.reason)
  }

  numberPages(doc, (page, pages) => `${label('caseFile.page', { page: String(page), pages: String(pages) })} · ${transaction.id}`)
  doc.end()
  return finished
}

const actors = ['buyer', 'seller', 'admin', 'system'] as const
function isActor(kind: string): kind is (typeof actors)[number] {
  return (actors as readonly string[]).includes(kind)
}

/** "Page n of m" at the foot of every page, written once all pages exist (bufferPages). */
function numberPages(doc: PDFKit.PDFDocument, footer: (page: number, pages: number) => string) {
  const { start, count } = doc.bufferedPageRange()
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index)
    // Below the bottom margin: without lifting it, pdfkit would start a new page for the footer.
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(grey)
      .text(footer(index - start + 1, count), margin, doc.page.height - margin / 2 - 8, {
        width: doc.page.width - 2 * margin,
        align: 'center',
        lineBreak: false,
      })
    doc.page.margins.bottom = bottom
  }
}
