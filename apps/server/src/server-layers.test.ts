import { Linter } from 'eslint'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { serverLayerOf, serverLayersRule, sqlInRepositoriesRule } from '../../../scripts/lint/server-layers.ts'

// The lint rule that keeps the server's imports flowing one way (eslint.config.js).
const source = path.resolve(import.meta.dirname)

function problems(file: string, specifier: string): string[] {
  const linter = new Linter({ configType: 'flat' })
  const messages = linter.verify(
    `import { x } from '${specifier}'\nexport { x }\n`,
    [
      {
        files: ['**/*.ts'],
        plugins: { pactum: { rules: { 'server-layers': serverLayersRule } } },
        rules: { 'pactum/server-layers': 'error' },
      },
    ],
    path.join(source, file),
  )
  return messages.map((message) => message.message)
}

describe('the server layers', () => {
  it('places each file by where it lives', () => {
    expect(serverLayerOf('modules/transactions/routes/action-routes.ts')?.name).toBe('routes')
    expect(serverLayerOf('modules/listings/listing-routes.ts')?.name).toBe('routes')
    expect(serverLayerOf('http/plugins/authentication.ts')?.name).toBe('routes')
    expect(serverLayerOf('modules/transactions/pay.ts')?.name).toBe('use cases')
    expect(serverLayerOf('modules/transactions/engine/apply-event.ts')?.name).toBe('engine, repositories and views')
    expect(serverLayerOf('modules/listings/listings-repository.ts')?.name).toBe('engine, repositories and views')
    expect(serverLayerOf('modules/admin/admin-views.ts')?.name).toBe('engine, repositories and views')
    expect(serverLayerOf('ledger/append-entry.ts')?.name).toBe('engine, repositories and views')
    expect(serverLayerOf('db/schema.ts')?.name).toBe('db/')
    expect(serverLayerOf('config.ts')).toBeUndefined()
  })

  it('lets a layer import its own and lower layers', () => {
    expect(problems('modules/transactions/routes/action-routes.ts', '../pay.ts')).toEqual([])
    expect(problems('modules/transactions/pay.ts', './engine/apply-event.ts')).toEqual([])
    expect(problems('modules/transactions/engine/apply-event.ts', '../../../db/schema.ts')).toEqual([])
    expect(problems('modules/transactions/pay.ts', '../../config.ts')).toEqual([])
  })

  it('refuses an import that reaches up', () => {
    expect(problems('modules/transactions/pay.ts', './routes/action-routes.ts')).toEqual([
      expect.stringContaining('use cases may not import routes'),
    ])
    expect(problems('modules/transactions/engine/apply-event.ts', '../pay.ts')).toEqual([
      expect.stringContaining('engine, repositories and views may not import use cases'),
    ])
    expect(problems('modules/listings/listings-repository.ts', '../../http/app.ts')).toHaveLength(1)
    expect(problems('db/schema.ts', '../modules/transactions/transactions-repository.ts')).toHaveLength(1)
  })
})

function sqlProblems(file: string, code: string): string[] {
  const linter = new Linter({ configType: 'flat' })
  const rules = { 'sql-in-repositories': sqlInRepositoriesRule }
  return linter
    .verify(
      code,
      [{ files: ['**/*.ts'], plugins: { pactum: { rules } }, rules: { 'pactum/sql-in-repositories': 'error' } }],
      path.join(source, file),
    )
    .map((message) => message.message)
}

describe('SQL in repositories', () => {
  const query = "export const find = (db) => db.selectFrom('users').selectAll().execute()\n"
  const template = "import { sql } from 'kysely'\nexport const now = sql`select now()`\n"

  it('lets repositories, the engine and db/ hold SQL', () => {
    expect(sqlProblems('modules/profile/profile-repository.ts', query)).toEqual([])
    expect(sqlProblems('modules/transactions/engine/apply-event.ts', query)).toEqual([])
    expect(sqlProblems('db/ping.ts', template)).toEqual([])
  })

  it('refuses a query in a use case or a route, and lets them open a transaction', () => {
    expect(sqlProblems('modules/profile/close-account.ts', query)).toEqual([expect.stringContaining('use cases hold no SQL')])
    expect(sqlProblems('modules/listings/listing-routes.ts', template)).toEqual([expect.stringContaining('routes hold no SQL')])
    expect(
      sqlProblems('modules/profile/close-account.ts', 'export const run = (db) => db.transaction().execute(async () => {})\n'),
    ).toEqual([])
  })
})
