import { type Kysely, sql } from 'kysely'

/**
 * Issue 35 item 4 (docs/decisions/114-escrow-you-can-check.md): every
 * transaction's public verification page, `/verify/<code>`. The engine writes
 * a fresh code into each new row (16 bytes from node:crypto, as unpadded
 * URL-safe base64: 22 characters). Existing rows get theirs here, and rows
 * written outside the engine (benches, tests' fixtures) from the default:
 * PostgreSQL core has no random-bytes function (pgcrypto is an extension),
 * but `gen_random_uuid()` draws from its CSPRNG, 122 random bits a UUID, so
 * the SHA-256 of two of them, cut to 16 bytes, holds 128 random bits and is
 * written the same way. The same SQL on PostgreSQL 15 and PGlite's 18.
 */
const freshCode = sql`rtrim(translate(encode(substring(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')) from 1 for 16), 'base64'), '+/', '-_'), '=')`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transactions add column verify_code text`.execute(db)
  await sql`update transactions set verify_code = ${freshCode}`.execute(db)
  await sql`alter table transactions alter column verify_code set default ${freshCode}`.execute(db)
  await sql`alter table transactions alter column verify_code set not null`.execute(db)
  await sql`alter table transactions add constraint transactions_verify_code_key unique (verify_code)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transactions drop column verify_code`.execute(db)
}
