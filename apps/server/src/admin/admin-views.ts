import type { AuditEvent } from '@pactum/contracts/admin'
import type { AuditEventRow } from './admin-queries.ts'

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
