import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildPgliteTemplate } from './test-database.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite template's dump (test-database.ts), when the tests run on PGlite. */
    pgliteTemplateFile: string | undefined
  }
}

/**
 * Vitest's global setup for the server tests: builds the migrated PGlite
 * template once for the run. Without it each file, when every file ran in a
 * fresh module context, migrated a template of its own, some 8 s of a busy
 * two-core machine each (measured, docs/performance.md); since the server
 * files share a worker's module state (vitest.config.ts) it would still be
 * one per worker.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // On PostgreSQL the template is a database on that server (test-database.ts).
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplateFile', undefined)
    return undefined
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'pactum-pglite-template-'))
  const file = path.join(dir, 'template.tar')
  const dump = await buildPgliteTemplate()
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()))
  project.provide('pgliteTemplateFile', file)
  return () => rm(dir, { recursive: true, force: true })
}
