import { defineConfig } from 'vitest/config'

// One runner for every workspace: `npm run test:unit` runs them all, and
// `vitest run --project server` runs only the database-facing tests (CI runs
// those a second time against the real PostgreSQL).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      { test: { name: 'contracts', root: 'packages/contracts', environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
})
