import { type Locale, toLanguageTag } from '@pactum/domain/locales'
import { grey, openPdf } from '../../pdf/pdf-document.ts'
import { type MessageKey, messages } from '../notifications/notification-messages.ts'
import type { CaseFile } from './case-file.ts'

/** Lays a case file (case-file.ts) out as a PDF in the reader's language (pdf-document.ts sets the document up). */

export async function renderCaseFilePdf(file: CaseFile, locale: Locale): Promise<Buffer> {
  const table = messages[locale]
  const label = (key: `caseFile.${string}` & MessageKey, values: Record<string, string> = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
  const tag = toLanguageTag(locale)
  const { doc, text, fact, heading, gap, when, money, finish } = openPdf({
    locale,
    currency: file.transaction.currency,
    title: `${label('caseFile.title')} ${file.transaction.id}`,
    createdAt: file.generatedAt,
  })
  const size = (bytes: number) =>
    bytes < 1000
      ? new Intl.NumberFormat(tag, { style: 'unit', unit: 'byte' }).format(bytes)
      : new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1 }).format(bytes / 1000)
  const actor = (kind: string) => (isActor(kind) ? label(`caseFile.actor.${kind}`) : kind)

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

  return finish((page, pages) => `${label('caseFile.page', { page: String(page), pages: String(pages) })} · ${transaction.id}`)
}

const actors = ['buyer', 'seller', 'admin', 'system', 'partner'] as const
function isActor(kind: string): kind is (typeof actors)[number] {
  return (actors as readonly string[]).includes(kind)
}
