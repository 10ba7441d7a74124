import { Linter } from 'eslint'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { serverLayerOf, serverLayersRule } from '../../../scripts/lint/server-layers.ts'

// The lint rule that keeps the server's imports flowing one way (eslint.config.js).
const source = path.resolve(import.meta.dirname)

function problems(file: string, specifier: string): string[] {
  const linter = new Linter({ configType: 'flat' })
  const messages = linter.verify(
    `import { x } from '${specifier}'\nexport { x }\n`,
    [{ files: ['**/*.ts'], plugins: { pactum: { rules: { 'server-layers': serverLayersRule } } }, rules: { 'pactum/server-layers': 'error' } }],
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
