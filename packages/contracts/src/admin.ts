import { adminSteps } from '@pactum/domain/transactions/available-actions'
import { caseSchema } from './disputes.ts'
import { f2fStatuses } from '@pactum/domain/transactions/f2f-state'
import { onlineStatuses } from '@pactum/domain/transactions/online-state'
import { z } from 'zod'
import { anyTransactionSchema } from './f2f-transactions.ts'
import { currencyCodeSchema, transactionTypeInputSchema, transactionTypeSchema } from './transactions.ts'

/** Every status either kind can be in (the admin list filters both kinds at once). */
export const anyStatuses = [...new Set<string>([...onlineStatuses, ...f2fStatuses])] as [string, ...string[]]
export const anyStatusSchema = z.enum(anyStatuses)

/** Page size the console asks for (the API allows up to 1000, spec §9). */
export const adminPageSize = 50

/** A calendar day: the pattern, and a day that exists (no 2026-02-30). */
const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'a date such as 2026-01-31', abort: true })
  .refine((text) => {
    const day = new Date(`${text}T00:00:00Z`)
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text)
  }, 'a day that exists')

/** GET /admin/transactions: every filter optional, all combined with "and". */
export const adminTransactionQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
  after_id: z.string().optional(),
  status: anyStatusSchema.optional(),
  type: transactionTypeInputSchema.optional(),
  currency: currencyCodeSchema.optional(),
  client_id: z.string().min(1).max(100).optional(),
  /** Created on or after this day (UTC). */
  created_from: dateSchema.optional(),
  /** Created on or before this day (UTC). */
  created_to: dateSchema.optional(),
  /** An id (or part of one), a join code, or part of the buyer's or seller's e-mail. */
  search: z.string().trim().min(1).max(254).optional(),
})
export type AdminTransactionQuery = z.input<typeof adminTransactionQuerySchema>

/** A state change (or a refused admin action's absence): what the engine's audit trail holds. */
export const auditEventSchema = z
  .object({
    id: z.string(),
    transaction_id: z.string(),
    event: z.string(),
    actor_kind: z.string(),
    actor_user_id: z.string().nullable(),
    actor_email: z.string().nullable(),
    reason: z.string().nullable(),
    from_status: z.string(),
    to_status: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'AuditEvent' })
export type AuditEvent = z.infer<typeof auditEventSchema>

/**
 * A line of the admin audit log: an admin's step on a transaction (an
 * AuditEvent), or a decision on something else: a reconciliation difference
 * explained (`event` `explain_difference`, `open` → `explained`).
 */
export const auditLogEntrySchema = auditEventSchema
  .extend({
    transaction_id: z.string().nullable().meta({ description: 'the transaction acted on; null for a decision on something else' }),
    reconciliation_difference: z
      .object({
        id: z.string(),
        /** The UTC day (YYYY-MM-DD) whose reconciliation found it. */
        day: z.string(),
        movement: z.string(),
        provider_id: z.string(),
        currency: z.string().nullable(),
      })
      .nullable()
      .meta({ description: 'the reconciliation difference decided on; null for a step on a transaction' }),
  })
  .meta({ id: 'AuditLogEntry' })
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>
export const auditLogSchema = z.array(auditLogEntrySchema)

/** GET /admin/audit_log: admin actions, newest first; `after_id` is the last id of the previous page. */
export const auditLogQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(adminPageSize),
  after_id: z.coerce.number().int().min(1).optional(),
})

export const ledgerEntryViewSchema = z
  .object({
    id: z.string(),
    kind: z.string(),
    part: z.string(),
    reason: z.string(),
    created_at: z.string(),
    postings: z.array(z.object({ account: z.string(), amount: z.number().int(), currency: z.string() })),
  })
  .meta({ id: 'LedgerEntryView' })
export type LedgerEntryView = z.infer<typeof ledgerEntryViewSchema>

export const providerEventViewSchema = z
  .object({
    id: z.string(),
    provider: z.string(),
    event_id: z.string(),
    type: z.string(),
    created: z.string(),
    received_at: z.string(),
    processed_at: z.string().nullable(),
  })
  .meta({ id: 'ProviderEventView' })
export type ProviderEventView = z.infer<typeof providerEventViewSchema>

export const notificationViewSchema = z
  .object({
    id: z.string(),
    template: z.string(),
    recipient_role: z.enum(['buyer', 'seller']),
    language: z.string(),
    /**
     * `undeliverable`: the mail server refused it for good (an SMTP 5xx); not tried again.
     * `opted_out`: the recipient turned that kind of e-mail off (decision 101); not sent.
     */
    status: z.enum(['pending', 'sending', 'sent', 'undeliverable', 'opted_out']),
    created_at: z.string(),
    sent_at: z.string().nullable(),
    /** The mail server's reply when it refused the e-mail for good. */
    failure: z.string().nullable(),
  })
  .meta({ id: 'NotificationView' })
export type NotificationView = z.infer<typeof notificationViewSchema>

/** GET /admin/transactions/{id}: everything the console shows about one transaction. */
export const adminTransactionDetailSchema = z
  .object({
    transaction: anyTransactionSchema,
    case: caseSchema
      .nullable()
      .meta({ description: "the complaint's case, with its text, offers and deadlines; null without a complaint" }),
    buyer_email: z.string().nullable(),
    seller_email: z.string().nullable(),
    fraud_warning: z
      .object({ id: z.string(), fraud_type: z.string(), received_at: z.string(), cleared_at: z.string().nullable() })
      .nullable()
      .meta({ description: "the card issuer's early fraud warning: no release until an admin clears it (decision 109); admins only" }),
    available_steps: z
      .array(z.enum(adminSteps))
      .meta({ description: "the console's steps the engine would take now (derived from it, like available_actions)" }),
    events: z.array(auditEventSchema),
    ledger_entries: z.array(ledgerEntryViewSchema),
    provider_events: z.array(providerEventViewSchema),
    notifications: z.array(notificationViewSchema),
  })
  .meta({ id: 'AdminTransactionDetail' })
export type AdminTransactionDetail = z.infer<typeof adminTransactionDetailSchema>

/** GET /admin/clients: the partner clients as the database holds them. */
export const adminClientSchema = z
  .object({
    client_id: z.string(),
    name: z.string(),
    url: z.string(),
    background_color: z.string(),
    text_color: z.string(),
    /** Allowed web routes; empty allows every route. */
    routes: z.array(z.string()),
    mobile_navbar_hidden: z.boolean(),
    show_seller_confirm_handover: z.boolean(),
    /** Where Pactum writes to the partner about its integration; null: only to Pactum's support address. */
    contact_email: z.string().nullable(),
    transactions: z.number().int(),
    /** The configuration file names this client: a change to its entry there replaces what the console set. */
    in_clients_file: z.boolean(),
    /** When its partner API key was issued; null: it has none. */
    api_key_issued_at: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'AdminClient' })
export type AdminClient = z.infer<typeof adminClientSchema>
export const adminClientListSchema = z.array(adminClientSchema)

/** POST /admin/clients/{client_id}/api_key: the new key, shown this once (only its hash is kept). */
export const issuedApiKeySchema = z.object({ api_key: z.string(), issued_at: z.string() }).meta({ id: 'IssuedApiKey' })
export type IssuedApiKey = z.infer<typeof issuedApiKeySchema>

export const clientChangeActions = ['created', 'updated', 'seeded_from_file', 'api_key_issued', 'api_key_revoked'] as const

/** One change to a partner client: by an admin in the console, the operator's CLI, or the clients file at start-up. */
export const clientChangeSchema = z
  .object({
    id: z.string(),
    client_id: z.string(),
    action: z.enum(clientChangeActions),
    actor_kind: z.enum(['admin', 'operator', 'configuration']),
    actor_email: z.string().nullable(),
    /** The client's settings after the change (none for key changes). */
    settings: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ClientChange' })
export type ClientChange = z.infer<typeof clientChangeSchema>
export const clientChangeListSchema = z.array(clientChangeSchema)

/** GET /admin/ledger/verify. */
export const ledgerVerificationSchema = z
  .object({
    ok: z.boolean(),
    breaches: z.array(z.object({ rule: z.string(), transaction_id: z.string().nullable(), detail: z.string() })),
  })
  .meta({ id: 'LedgerVerification' })
export type LedgerVerification = z.infer<typeof ledgerVerificationSchema>

/**
 * GET /admin/long_holds (issue 34): money held longer than HOLD_ALERT_DAYS,
 * oldest first, with why it is still held: the sale's status and, when a
 * complaint opened a case, whether it waits for the seller or for an admin.
 */
export const longHoldSchema = z
  .object({
    transaction_id: z.string(),
    type: transactionTypeSchema,
    status: anyStatusSchema,
    amount: z.number().int().meta({ description: 'what escrow holds now, in minor units' }),
    currency: currencyCodeSchema,
    held_since: z.iso.datetime().meta({ description: 'when the first payment was held' }),
    days_held: z.number().int(),
    last_change_at: z.iso.datetime().meta({ description: 'when the sale last changed state' }),
    case: z.enum(['with_seller', 'with_admin']).nullable(),
  })
  .meta({ id: 'LongHold' })
export type LongHold = z.infer<typeof longHoldSchema>
export const longHoldsSchema = z.object({ alert_days: z.number().int(), holds: z.array(longHoldSchema) }).meta({ id: 'LongHolds' })
export type LongHolds = z.infer<typeof longHoldsSchema>

/** The console's release form: the reason the engine records, required. */
export const adminReleaseFormSchema = z.object({ reason: z.string().trim().min(1).max(1000) })

const blankOr = <Schema extends z.ZodType>(schema: Schema) => z.union([z.literal(''), schema])

/** The console's filter form: each field blank (any) or a value the list call accepts. */
export const adminFilterFormSchema = z.object({
  status: blankOr(anyStatusSchema),
  type: blankOr(transactionTypeSchema),
  currency: blankOr(z.string().trim().toLowerCase().pipe(currencyCodeSchema)),
  client_id: z.string().trim().max(100),
  created_from: blankOr(dateSchema),
  created_to: blankOr(dateSchema),
  search: z.string().trim().max(254),
})
export type AdminFilterForm = z.input<typeof adminFilterFormSchema>
