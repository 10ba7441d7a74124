import { type Kysely, sql } from 'kysely'

/**
 * Partner clients get the rest of their settings (spec §1: colours, return
 * URL, allowed routes, mobile navbar); rows made before keep a plain look
 * and allow every route. Users remember when they saw the guided tour, so it
 * is shown once per person whatever the device.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('background_color', 'text', (col) => col.notNull().defaultTo('#1d3557'))
    .addColumn('text_color', 'text', (col) => col.notNull().defaultTo('#ffffff'))
    .addColumn('url', 'text', (col) => col.notNull().defaultTo('/'))
    .addColumn('routes', sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('mobile_navbar_hidden', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.alterTable('users').addColumn('tour_seen_at', 'timestamptz').execute()
}
