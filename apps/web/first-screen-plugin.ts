import type { HtmlTagDescriptor, Plugin } from 'vite'

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
      firstScreenModules.clear()
      const start = [...this.getModuleIds()].find((id) => id.endsWith(page))
      if (!start) throw new Error(`first-screen: no module ends with ${page}`)
      const pending = [start]
      while (pending.length > 0) {
        const id = pending.pop() as string
        if (firstScreenModules.has(id)) continue
        firstScreenModules.add(id)
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []))
      }
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
