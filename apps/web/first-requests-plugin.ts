import type { Plugin, Rollup } from 'vite'

/** `start` and every module it imports statically, directly or not, into `into`. */
function collectStaticClosure(context: Rollup.PluginContext, start: string, into: Set<string>): void {
  into.clear()
  const first = [...context.getModuleIds()].find((id) => id.endsWith(start))
  if (!first) throw new Error(`first-requests: no module ends with ${start}`)
  const pending = [first]
  while (pending.length > 0) {
    const id = pending.pop() as string
    if (into.has(id)) continue
    into.add(id)
    pending.push(...(context.getModuleInfo(id)?.importedIds ?? []))
  }
}

/**
 * The modules of index.html's first script (src/first-requests.ts), which
 * asks for the first screen's data while the app's script downloads. They
 * must stay in a small file of their own: the bundler would otherwise put
 * them with the rest of the entry's static imports (vite.config.ts), and the
 * first requests would wait for the whole app to download. The app imports
 * what it shares with them from that file.
 */
export function firstRequests({ entry }: { entry: string }) {
  const modules = new Set<string>()
  const plugin: Plugin = {
    name: 'pactum:first-requests',
    apply: 'build',
    // An entry of its own, not a <script> in index.html: Vite bundles all of a page's scripts into one entry,
    // whose first line would then run only once the whole app had downloaded.
    config: () => ({ build: { rolldownOptions: { input: { index: 'index.html', 'first-requests': entry } } } }),
    buildEnd() {
      collectStaticClosure(this, entry, modules)
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunk = Object.values(bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.facadeModuleId?.endsWith(entry),
        )
        if (!chunk) throw new Error(`first-requests: no entry chunk for ${entry}`)
        const appScript = html.indexOf('<script type="module"')
        if (appScript === -1) throw new Error('first-requests: index.html has no module script to go before')
        // `async`: it runs as soon as it has downloaded, not once the app's script has too (deferred
        // module scripts wait for each other). The app imports it, so it still runs before the app.
        const tag = `<script type="module" async crossorigin src="/${chunk.fileName}"></script>\n    `
        return html.slice(0, appScript) + tag + html.slice(appScript)
      },
    },
  }
  return { plugin, isFirstRequestsModule: (id: string) => modules.has(id) }
}
