import type { CaseView, SettlementOfferView } from '@pactum/contracts/disputes'
import type { AttachmentContentType } from '@pactum/contracts/messages'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { eventsOf } from '../admin/admin-repository.ts'
import { allMessages } from '../conversation/messages-repository.ts'
import { type DocumentTransaction, documentTransaction } from '../transactions/document-facts.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { toCaseView } from './case-view.ts'

/**
 * Everything a case file says (issue 32 item 4), as plain data: the PDF
 * renderer (case-file-pdf.ts) only lays it out, so what the file contains
 * is tested here without reading a PDF.
 *
 * Both copies name the buyer and the seller by e-mail address (the admin
 * console shows them, and each party sees the other's on the status page,
 * decision 088); only the admins' copy says which admin took a step.
 */
export type CaseFileAudience = 'admin' | 'party'

export interface CaseFileAttachment {
  name: string
  contentType: AttachmentContentType
  size: number
  sha256: string
}

export interface CaseFile {
  generatedAt: Date
  transaction: DocumentTransaction
  case: Omit<CaseView, 'offers' | 'transaction_id' | 'currency' | 'price_in_dispute' | 'amount_refunded' | 'amount_released'>
  offers: SettlementOfferView[]
  /** Every step of the history, oldest first. */
  timeline: Array<{
    at: Date
    event: string
    actorKind: string
    /** Only in the admins' copy: the parties learn that an admin acted, not which one. */
    actorEmail: string | null
    fromStatus: string | null
    toStatus: string
    reason: string | null
  }>
  messages: Array<{ at: Date; authorRole: 'buyer' | 'seller' | 'admin'; text: string | null; attachment: CaseFileAttachment | null }>
  /** Every attachment with the time it was received; `inHistory`: the history has its `sha256:` step. */
  evidence: Array<CaseFileAttachment & { receivedAt: Date; inHistory: boolean }>
  /** How the case ended; null while it is open. */
  outcome: {
    kind: 'decided' | 'settled' | 'complaint_accepted' | 'closed'
    at: Date
    amountRefunded: number
    amountReleased: number
    /** The admin's reason, as both parties received it. */
    reason: string | null
  } | null
}

/** A transaction without a complaint has no case file: the refusal GET …/case gives. */
export function noCase(): AppError {
  return new AppError('not_found', 'No complaint was made on this transaction')
}

/** The case file of `row`, read from the history, the conversation and the case; `noCase()` before a complaint. */
export async function buildCaseFile(db: Kysely<Database>, row: TransactionRow, audience: CaseFileAudience, now: Date): Promise<CaseFile> {
  const view = toCaseView(row)
  if (view === null) throw noCase()
  const [events, messages, transaction] = await Promise.all([eventsOf(db, row.id), allMessages(db, row.id), documentTransaction(db, row)])

  const timeline = events.map((event) => ({
    at: event.created_at,
    event: event.event,
    actorKind: event.actor_kind,
    actorEmail: audience === 'admin' ? event.actor_email : null,
    fromStatus: event.from_status,
    toStatus: event.to_status,
    reason: event.reason,
  }))
  const hashesInHistory = new Set(timeline.flatMap((step) => (step.reason?.startsWith('sha256:') ? [step.reason.slice(7)] : [])))
  const withAttachments = messages.map((message) => ({
    at: message.created_at,
    authorRole: message.author_role,
    text: message.text,
    attachment:
      message.attachment_name !== null && message.attachment_size !== null && message.attachment_sha256 !== null
        ? {
            name: message.attachment_name,
            contentType: message.attachment_content_type as AttachmentContentType,
            size: message.attachment_size,
            sha256: message.attachment_sha256,
          }
        : null,
  }))

  const {
    offers,
    transaction_id: _id,
    currency: _currency,
    price_in_dispute: _price,
    amount_refunded,
    amount_released,
    ...caseFacts
  } = view
  return {
    generatedAt: now,
    transaction,
    case: caseFacts,
    offers,
    timeline,
    messages: withAttachments,
    evidence: withAttachments.flatMap((message) =>
      message.attachment
        ? [{ ...message.attachment, receivedAt: message.at, inHistory: hashesInHistory.has(message.attachment.sha256) }]
        : [],
    ),
    outcome: view.state === 'closed' ? outcomeOf(timeline, amount_refunded, amount_released) : null,
  }
}

/** The step that took the transaction out of `complained` names how the case ended. */
function outcomeOf(timeline: CaseFile['timeline'], amountRefunded: number, amountReleased: number): CaseFile['outcome'] {
  const closing = timeline.findLast((step) => step.fromStatus === 'complained' && step.toStatus !== 'complained')
  if (!closing) return null
  const kind =
    closing.actorKind === 'admin'
      ? 'decided'
      : closing.event === 'accept_settlement'
        ? 'settled'
        : closing.event === 'accept_complaint'
          ? 'complaint_accepted'
          : 'closed'
  return { kind, at: closing.at, amountRefunded, amountReleased, reason: kind === 'decided' ? closing.reason : null }
}
