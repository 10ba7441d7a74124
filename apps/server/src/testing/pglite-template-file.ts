import { inject } from 'vitest'
import { usePgliteTemplateFile } from './test-database.ts'

// Runs before every server test file (vitest.config.ts setupFiles): the
// template the global setup built for the run, instead of one per file.
const file = inject('pgliteTemplateFile')
if (file) usePgliteTemplateFile(file)
