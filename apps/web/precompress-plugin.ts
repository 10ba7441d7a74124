/// <reference types="node" />
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

const compressible = /\.(js|css|html|json|svg|txt|webmanifest)$/
/** Below this, a compressed copy saves less than its headers cost. */
const minimumBytes = 1024

/**
 * Writes a gzip and a brotli copy beside every compressible output file, so
 * the server sends them ready-made (@fastify/static `preCompressed`, in
 * apps/server/src/http/plugins/web-app.ts) instead of compressing per request
 * or not at all: issue 13's Lighthouse run measured 775 kB of JavaScript on
 * the wire uncompressed, ~220 kB compressed.
 */
export function precompress(): Plugin {
  return {
    name: 'pactum:precompress',
    apply: 'build',
    // writeBundle, not generateBundle: Vite rewrites the chunks' preload markers after generateBundle runs.
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      for (const output of Object.values(bundle)) {
        if (!compressible.test(output.fileName)) continue
        const source = output.type === 'chunk' ? output.code : output.source
        const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source)
        if (bytes.length < minimumBytes) continue
        const file = path.join(dir, output.fileName)
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        )
      }
    },
  }
}
