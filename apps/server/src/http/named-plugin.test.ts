import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { named } from './named-plugin.ts'

describe('named', () => {
  it('gives the plugin the name Fastify reports, and keeps what it decorates inside it', async () => {
    const app = Fastify()
    let seenName = ''
    await app.register(
      named('inner-routes', async (scope) => {
        scope.decorate('onlyInside', true)
        seenName = scope.pluginName
      }),
    )
    await app.ready()
    expect(seenName).toContain('inner-routes')
    expect(app.hasDecorator('onlyInside')).toBe(false)
    await app.close()
  })

  it('names a plugin again when it is registered in a second app', async () => {
    const plugin = async () => {}
    for (const name of ['first', 'second']) {
      const app = Fastify()
      await app.register(named(name, plugin))
      await app.ready()
      expect((plugin as unknown as Record<symbol, string>)[Symbol.for('fastify.display-name')]).toBe(name)
      await app.close()
    }
  })
})
