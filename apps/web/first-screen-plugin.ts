import type { HtmlTagDescriptor, Plugin, Rollup } from 'vite'

/** `start` and every module it imports statically, directly or not, into `into`. */
function collectStaticClosure(context: Rollup.PluginContext, start: string, into: Set<string>): void {
  into.clear()
  const first = [...context.getModuleIds()].find((id) => id.endsWith(start))
  if (!first) throw new Error(`first-screen: no module ends with ${start}`)
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
        const chunk = Object.values(bundle ?? {}).find((output) => output.type === 'chunk' && output.isEntry && output.facadeModuleId?.endsWith(entry))
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

/**
 * The first screen's chunks, fetched with the entry instead of after it
 * (issue 13, LCP). Without a hint the browser learns of them only once the
 * entry has downloaded and run: one more round trip before the page can
 * render and ask for its data.
 *
 * - `isFirstScreenModule` tells the modules My transactions' page imports
 *   statically; vite.config.ts puts them in one chunk (codeSplitting group),
 *   not the ~20 small shared chunks the bundler makes by default.
 * - index.html gets a `modulepreload` for it (and the page's own small chunk),
 *   so they download beside the entry. That is wasted on the few first loads
 *   that are not My transactions: it is the home page, where sign-in returns
 *   to and where `/` leads.
 */
export function firstScreen({ page }: { page: string }) {
  const firstScreenModules = new Set<string>()
  const plugin: Plugin = {
    name: 'pactum:first-screen',
    apply: 'build',
    buildEnd() {
      collectStaticClosure(this, page, firstScreenModules)
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk')
        const files = new Set<string>()
        const add = (fileName: string) => {
          const chunk = chunks.find((candidate) => candidate.fileName === fileName)
          if (!chunk || chunk.isEntry || files.has(fileName)) return
          files.add(fileName)
          for (const imported of chunk.imports) add(imported)
        }
        const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(page))
        if (!chunk) throw new Error(`first-screen: no chunk for ${page}`)
        add(chunk.fileName)
        return [...files].map(
          (file): HtmlTagDescriptor => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head',
          }),
        )
      },
    },
  }
  // The page itself stays its own (dynamic entry) chunk, so the manifest still names it (scripts/web-bundle-size.ts).
  return { plugin, isFirstScreenModule: (id: string) => firstScreenModules.has(id) && !id.endsWith(page) }
}
