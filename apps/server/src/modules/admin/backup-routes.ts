import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { dumpPglite } from '../../backup/backup.ts'
import type { Database } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { adminOf } from '../../http/plugins/authentication.ts'

/**
 * A consistent copy of the embedded database, for `npm run cli -- backup`
 * while the server runs (a PGlite directory is open in one process only):
 * admin only, never cached. With PostgreSQL the command runs pg_dump itself.
 */
export function adminBackupRoutes(database: Database): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/backup',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          tags: ['admin'],
          summary: 'A backup of the embedded database (PGlite): its data directory as a gzipped tar, taken between two statements',
          security: [{ bearer: [] }],
          response: {
            200: {
              description: 'The backup, for `npm run cli -- restore <file> --data-dir <dir>`',
              content: { 'application/gzip': { schema: z.string().meta({ format: 'binary' }) } },
            },
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        adminOf(request)
        if (!database.pglite)
          throw new AppError('not_found', 'This server runs on PostgreSQL: back up with `npm run cli -- backup <file>` (pg_dump)')
        const bytes = await dumpPglite(database.pglite)
        // Bytes, not the JSON the typed reply expects: sent through the plain reply, as the PDFs are.
        return (reply as FastifyReply)
          .header('content-type', 'application/gzip')
          .header('content-length', String(bytes.byteLength))
          .header('content-disposition', 'attachment; filename="pactum-backup.tar.gz"')
          .header('cache-control', 'private, no-store')
          .send(bytes)
      },
    )
  }
}
