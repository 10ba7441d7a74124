import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { dictionaryParts } from './dictionary-parts-plugin.ts'
import { firstRequests } from './first-requests-plugin.ts'
import { inlineIcon } from './inline-icon-plugin.ts'
import { precompress } from './precompress-plugin.ts'

// What index.html's first script asks for before the app has downloaded: a file of its own.
const earlyRequests = firstRequests({ entry: 'src/first-requests.ts' })

export default defineConfig({
  plugins: [react(), dictionaryParts(), earlyRequests.plugin, inlineIcon({ href: '/favicon.svg', publicDir: 'public' }), precompress()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one file, not ~30: over HTTP/1.1 a browser
          // opens six connections per origin, and each extra wave of small files costs a round trip.
          groups: [
            { name: 'first-requests', test: earlyRequests.isFirstRequestsModule, priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/app_api': 'http://localhost:3000',
      '/oidc': 'http://localhost:3000',
      '/sandbox': 'http://localhost:3000',
      // The link in invitation e-mails that stops them (a server page).
      '/stop-invitations': 'http://localhost:3000',
      // The server's (apps/server/assets), shared with the sign-in pages.
      '/favicon.ico': 'http://localhost:3000',
    },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    passWithNoTests: true,
    setupFiles: ['./src/test/setup.ts'],
    // Room for the longer waits of setup.ts on a loaded machine.
    testTimeout: 30_000,
    // The root config's three workers: a project given by its own config file
    // does not inherit them, and Vitest's default (one fewer than the CPUs) is
    // one on a two-core machine, which also puts this project's files in a
    // group of their own that runs after every other project's. Until
    // 2026-12-07 the web files ran one at a time at the end of the run, a
    // core idle for about five minutes.
    maxWorkers: 3,
  },
})
