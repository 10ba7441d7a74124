import { configDefaults, defineConfig } from 'vitest/config'
import { engineIndependentTestFiles } from './apps/server/src/testing/engine-independent-tests.ts'
import SlowestFilesFirst from './apps/server/src/testing/slowest-files-first.ts'
import { webFilesRunIsolated } from './apps/web/src/test/files-run-isolated.ts'

// `npm run test:db` (CI's second pass, on PostgreSQL) runs only the server
// files whose outcome can depend on the engine.
const engineTestsOnly = process.env.PACTUM_ENGINE_TESTS_ONLY === '1'

// One runner for every workspace: `npm run test:unit` runs them all, and
// `npm run test:db` only the server files that can depend on the database
// engine (CI runs those a second time against the real PostgreSQL).
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the CPUs: a single worker on
    // a two-core CI machine. The server tests spend much of their time
    // waiting on the database, so a third worker overlaps those waits.
    maxWorkers: 3,
    sequence: { sequencer: SlowestFilesFirst },
    projects: [
      {
        test: {
          name: 'domain',
          root: 'packages/domain',
          environment: 'node',
          // The property tests run thousands of random histories: ~3 s alone,
          // more than Vitest's default 5 s when they share two cores with the
          // server tests in CI. A timeout only guards against hangs here.
          testTimeout: 60_000,
          // Pure modules with no state between files: one module graph per
          // worker instead of one per file (about a third of these two
          // projects' time on 2026-12-06).
          isolate: false,
        },
      },
      { test: { name: 'contracts', root: 'packages/contracts', environment: 'node', isolate: false } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          // The migrated PGlite template, built once for the run and cloned
          // by every file's tests (testing/test-database.ts).
          globalSetup: ['src/testing/pglite-template-setup.ts'],
          setupFiles: ['src/testing/pglite-template-file.ts'],
          exclude: engineTestsOnly ? [...configDefaults.exclude, ...engineIndependentTestFiles] : configDefaults.exclude,
          // A hang guard, not a speed check: on PostgreSQL a worker's first
          // test also builds the migrated template database, which on two
          // busy cores has come close to 30 s.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One module graph per worker, not per file: each file imported the
          // whole server again (Fastify, the OIDC provider, every schema) and
          // started a PGlite of its own. The project alone on 2026-12-07:
          // 852 s and 1,694 s of busy CPU isolated, 360 s and 710 s not, the
          // same 1,425 tests passing. What files share on purpose: the
          // template, idle PGlite engines, the test signing key.
          isolate: false,
        },
      },
      // The web app's files, in a window per worker, not per file (setup.ts
      // gives each test a fresh window's address, cookies and storage): this
      // project alone on 2026-12-07 took 255 s and 504 s of busy CPU isolated,
      // 101 s and 187 s not. The files that replace a module with
      // `vi.mock`, or depend on a module's first load, stay isolated in a
      // project of their own (files-run-isolated.ts says which and why).
      {
        extends: './apps/web/vite.config.ts',
        test: { name: 'web', root: 'apps/web', isolate: false, exclude: [...configDefaults.exclude, ...webFilesRunIsolated] },
      },
      { extends: './apps/web/vite.config.ts', test: { name: 'web-isolated', root: 'apps/web', include: webFilesRunIsolated } },
    ],
  },
})
