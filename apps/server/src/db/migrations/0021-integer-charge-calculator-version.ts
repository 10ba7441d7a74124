import { type Kysely, sql } from 'kysely'

/**
 * `charge_calculator_version` is an integer, as in the anchor product's API
 * (issue 11 #12). The only schedule ever stored was the text `2026-11-1`,
 * which is version 1; any other text is cast as it stands, so a value that
 * is no integer stops the migration instead of being guessed at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table transactions
      alter column charge_calculator_version type integer
        using (case when charge_calculator_version = '2026-11-1' then 1 else charge_calculator_version::integer end),
      alter column remainder_charge_calculator_version type integer
        using (case when remainder_charge_calculator_version = '2026-11-1' then 1 else remainder_charge_calculator_version::integer end)
  `.execute(db)
}
