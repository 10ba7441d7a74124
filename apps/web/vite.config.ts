import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { dictionaryParts } from './dictionary-parts-plugin.ts'
import { precompress } from './precompress-plugin.ts'

export default defineConfig({
  plugins: [react(), dictionaryParts(), precompress()],
  build: { outDir: 'dist', sourcemap: true, manifest: true },
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
