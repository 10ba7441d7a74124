import type { AdminClient, AuditEvent, AuditLogEntry } from '@pactum/contracts/admin'
import type { AuditEventRow, AuditLogRow, ClientWithCountRow } from './admin-repository.ts'

/** An audit-trail row as the API shows it (the bigserial id as text, times as ISO strings). */
export function toAuditEventView(row: AuditEventRow): AuditEvent {
  return {
    id: String(row.id),
    transaction_id: row.transaction_id,
    event: row.event,
    actor_kind: row.actor_kind,
    actor_user_id: row.actor_user_id,
    actor_email: row.actor_email,
    reason: row.reason,
    from_status: row.from_status,
    to_status: row.to_status,
    created_at: row.created_at.toISOString(),
  }
}

/** A line of the admin audit log: a transaction's audit event, or a decision on a reconciliation difference. */
export function toAuditLogEntryView(row: AuditLogRow): AuditLogEntry {
  return {
    id: String(row.id),
    transaction_id: row.transaction_id,
    reconciliation_difference: row.difference,
    event: row.event,
    actor_kind: row.actor_kind,
    actor_user_id: row.actor_user_id,
    actor_email: row.actor_email,
    reason: row.reason,
    from_status: row.from_status,
    to_status: row.to_status,
    created_at: row.created_at.toISOString(),
  }
}

/** A partner client as the console shows it; never its key or the key's hash. */
export function toAdminClientView(row: ClientWithCountRow): AdminClient {
  return {
    client_id: row.id,
    name: row.name,
    url: row.url,
    background_color: row.background_color,
    text_color: row.text_color,
    routes: row.routes,
    mobile_navbar_hidden: row.mobile_navbar_hidden,
    show_seller_confirm_handover: row.show_seller_confirm_handover,
    contact_email: row.contact_email,
    transactions: Number(row.transactions ?? 0),
    in_clients_file: row.seeded_settings !== null,
    api_key_issued_at: row.api_key_issued_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  }
}
