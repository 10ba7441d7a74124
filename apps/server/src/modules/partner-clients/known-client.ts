import { verifyingClientIds } from '@pactum/domain/high-value'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { fieldError } from '../../errors.ts'
import { findClientId } from './partner-clients-repository.ts'

/** What a transaction or listing made without `?client_id=` records: the product's own app. */
const defaultClientId = 'pactum-app'

/**
 * The client a transaction or listing is created under: the product's own
 * apps, or a partner client in the database. An unknown id is refused rather
 * than recorded: rules hang on it (the high-value gate applies to our own
 * clients, the handover step to a partner's setting), so a made-up id must
 * not pick its rules.
 */
export async function knownClientId(db: Kysely<Database>, clientId: string | undefined): Promise<string> {
  if (clientId === undefined) return defaultClientId
  if ((verifyingClientIds as readonly string[]).includes(clientId)) return clientId
  const partner = await findClientId(db, clientId)
  if (!partner) throw fieldError('querystring.client_id', 'No such client')
  return partner.id
}
