import { afterAll, inject } from 'vitest'
import { dropIdlePostgresDatabases, usePgliteTemplateFile } from './test-database.ts'

// Runs before every server test file (vitest.config.ts setupFiles): the
// template the global setup built for the run, instead of one per file.
const file = inject('pgliteTemplateFile')
if (file) usePgliteTemplateFile(file)

// On PostgreSQL a file's tests reuse the copies of the template its earlier
// tests left (test-database.ts); once they are all done, the copies go.
afterAll(dropIdlePostgresDatabases)
