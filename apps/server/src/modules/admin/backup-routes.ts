import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { backupDatabase } from '../../backup/backup.ts'
import type { Database } from '../../db/database.ts'
import { adminOf } from '../../http/plugins/authentication.ts'

const binary = { schema: z.string().meta({ format: 'binary' }) }

/**
 * A consistent copy of the database, for `npm run cli -- backup` while the
 * server runs (a PGlite directory is open in one process only, so the
 * embedded database can be copied only here): admin only, never cached.
 * PGlite's is its data directory as a gzipped tar; PostgreSQL's is
 * pg_dump's custom format, made on this server's host.
 */
export function adminBackupRoutes(database: Database): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/backup',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          tags: ['admin'],
          summary:
            'A consistent backup of the database: PGlite as a gzipped tar of its data directory, PostgreSQL as pg_dump custom format',
          security: [{ bearer: [] }],
          response: {
            200: {
              description: 'The backup, for `npm run cli -- restore <file>`',
              content: { 'application/gzip': binary, 'application/octet-stream': binary },
            },
            401: errorBodySchema,
            403: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        adminOf(request)
        const folder = await mkdtemp(path.join(tmpdir(), 'pactum-backup-'))
        const embedded = database.kind === 'pglite'
        const file = path.join(folder, embedded ? 'pactum-backup.tar.gz' : 'pactum-backup.dump')
        try {
          await backupDatabase(database, file)
        } catch (error) {
          await rm(folder, { recursive: true, force: true })
          throw error
        }
        const stream = createReadStream(file)
        stream.on('close', () => void rm(folder, { recursive: true, force: true }))
        // Bytes, not the JSON the typed reply expects: sent through the plain reply, as the PDFs are.
        return (reply as FastifyReply)
          .header('content-type', embedded ? 'application/gzip' : 'application/octet-stream')
          .header('content-disposition', `attachment; filename="${path.basename(file)}"`)
          .header('cache-control', 'private, no-store')
          .send(stream)
      },
    )
  }
}
