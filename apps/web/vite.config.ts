import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { dictionaryParts } from './dictionary-parts-plugin.ts'
import { firstScreen } from './first-screen-plugin.ts'
import { precompress } from './precompress-plugin.ts'

// My transactions' page and what it imports: fetched beside the entry.
const myTransactions = firstScreen({ page: 'src/features/transactions/transactions-page.tsx' })

export default defineConfig({
  plugins: [react(), dictionaryParts(), myTransactions.plugin, precompress()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    // Small font subsets went into the stylesheet as data: URLs (Vite's 4 kB default), making that
    // render-blocking file 35 kB; as files, unicode-range fetches only the subsets a page uses.
    assetsInlineLimit: (file) => (/\.woff2?$/.test(file) ? false : undefined),
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one file, not ~30: over HTTP/1.1 a browser
          // opens six connections per origin, and each extra wave of small files costs a round trip.
          groups: [
            { name: 'app', tags: ['$initial'] },
            { name: 'transactions-page', test: myTransactions.isFirstScreenModule },
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
  },
})
