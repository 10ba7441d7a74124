import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * `npm start` on a fresh clone must serve the complete product, so the web
 * app is built when its bundle is missing or older than its sources; after
 * that, start-up takes seconds.
 */
const root = path.resolve(import.meta.dirname, '..')
const builtIndex = path.join(root, 'apps/web/dist/index.html')
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'packages/domain/src', 'packages/contracts/src']

function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0
  const stat = statSync(entry)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))))
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0
const changedAt = Math.max(...sources.map((source) => newestChange(path.join(root, source))))
if (builtAt < changedAt) {
  console.warn(builtAt === 0 ? 'Building the web app (first start)…' : 'Web app sources changed; rebuilding…')
  execFileSync('npm', ['run', 'build', '--workspace', '@pactum/web'], { cwd: root, stdio: 'inherit' })
}
