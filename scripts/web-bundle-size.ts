import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

/**
 * The bundle budget of issue 13: the gzipped JavaScript a signed-in person's
 * browser fetches to show My transactions (/transactions). The issue's target
 * is 180 kB (1 kB = 1000 bytes, as everywhere in these docs); the first load
 * is not there yet (docs/performance.md, "Web first load"), so `npm test`
 * (which runs this right after `npm run build`) fails above `limitBytes`, the
 * figure reached so far plus a little room, and the target is printed beside
 * it. Lower the limit as the first load shrinks, to the target in the end.
 *
 * What the page needs is read from Vite's manifest rather than guessed:
 * the entries with their static-import closure (what index.html loads and
 * modulepreloads; My transactions' page is in the app's entry, routes.tsx),
 * and the dictionary of the active language. The language is the worst case over all supported ones,
 * so a Polish visitor is inside the budget as much as an English one.
 */
const targetBytes = 180 * 1000
const limitBytes = 180 * 1000
const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'apps/web/dist')
const manifestPath = path.join(dist, '.vite/manifest.json')

/** One language's first-load dictionary chunks: `src/i18n/locales/<locale>…`. */
const dictionaryKey = /^src\/i18n\/locales\/([a-z]{2}_[a-z]{2})\.json\?part=first$/

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
}
type Manifest = Record<string, ManifestChunk>

function readManifest(): Manifest {
  if (!existsSync(manifestPath)) {
    console.error(`${path.relative(root, manifestPath)} is missing: run \`npm run build\` first.`)
    process.exit(2)
  }
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest
}

/** `key` and every chunk it imports statically (the browser fetches them all before running it). */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key]
  if (!chunk) throw new Error(`The Vite manifest has no chunk for ${key}`)
  if (into.has(key)) return into
  into.add(key)
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into)
  return into
}

function gzipBytes(file: string): number {
  return gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length
}

interface Row {
  part: string
  file: string
  gzip: number
}

const manifest = readManifest()
// index.html loads both: the app (index.html) and the first requests' script ahead of it (vite.config.ts).
const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry)
if (entries.length === 0) throw new Error('Expected an entry in the Vite manifest, found none')
const counted = new Set<string>()
const rows: Row[] = []
function count(part: string, keys: Iterable<string>) {
  for (const key of keys) {
    const file = manifest[key]?.file
    if (!file || counted.has(file) || !file.endsWith('.js')) continue
    counted.add(file)
    rows.push({ part, file, gzip: gzipBytes(file) })
  }
}

for (const entry of entries) count('entry', staticClosure(manifest, entry))

// Each language's dictionary chunks beyond what is already counted; the largest language counts.
const byLocale = new Map<string, Row[]>()
for (const key of Object.keys(manifest)) {
  const locale = dictionaryKey.exec(key)?.[1]
  const file = manifest[key]?.file
  if (!locale || !file || counted.has(file) || !file.endsWith('.js')) continue
  byLocale.set(locale, [...(byLocale.get(locale) ?? []), { part: `dictionary ${locale}`, file, gzip: gzipBytes(file) }])
}
const heaviest = [...byLocale.values()].sort((a, b) => sum(b) - sum(a))[0] ?? []
rows.push(...heaviest)

function sum(list: Row[]): number {
  return list.reduce((total, row) => total + row.gzip, 0)
}
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

const total = sum(rows)
const width = Math.max(...rows.map((row) => row.file.length))
process.stdout.write('Gzipped JavaScript (level 9) for a signed-in /transactions, first load:\n')
for (const row of rows.sort((a, b) => b.gzip - a.gzip)) {
  process.stdout.write(`  ${row.file.padEnd(width)}  ${kB(row.gzip).padStart(9)}  ${row.part}\n`)
}
process.stdout.write(`  ${'total'.padEnd(width)}  ${kB(total).padStart(9)}  limit ${kB(limitBytes)}, target ${kB(targetBytes)}\n`)
if (total > limitBytes) {
  console.error(
    `Over the web first-load limit by ${kB(total - limitBytes)}: split more out of the entry (docs/decisions/080-web-first-load-budget.md, "Web first load").`,
  )
  process.exit(1)
}
process.stdout.write(
  total > targetBytes
    ? `Within the limit; ${kB(total - targetBytes)} above issue 13's target of ${kB(targetBytes)}.\n`
    : `Within issue 13's target (${kB(targetBytes - total)} to spare)${limitBytes > targetBytes ? `: lower limitBytes to ${kB(targetBytes)}` : ''}.\n`,
)
