/**
 * Gives one of our plugins a name the way Fastify's documentation says
 * (Server.md, "pluginName"): `Symbol.for('fastify.display-name')`. The
 * plugin stays encapsulated, unlike one wrapped by fastify-plugin.
 *
 * Why: Fastify looks for an unnamed plugin's name among every loaded
 * CommonJS module (`require.cache`), twice per registration. Once per
 * start that is nothing, but every test app registers about fifty plugins,
 * in Vitest workers that have loaded a thousand modules and more: 12 s of
 * the server tests' 540 s of CPU in a profile (2026-12-08).
 */
export function named<Plugin extends object>(name: string, plugin: Plugin): Plugin {
  Object.defineProperty(plugin, Symbol.for('fastify.display-name'), { value: name, configurable: true })
  return plugin
}
