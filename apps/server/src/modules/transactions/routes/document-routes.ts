import { type Locale, supportedLocales } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { Database } from '../../../db/schema.ts'
import { adminOf, userOf } from '../../../http/plugins/authentication.ts'
import { sendPdf } from '../../../pdf/send-pdf.ts'
import { notificationLanguage } from '../../profile/profile.ts'
import type { TransactionRow } from '../engine/transaction-state.ts'
import { getLanguages } from '../parties-repository.ts'
import { findById, findForParty } from '../transactions-repository.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'
import { idParams, transactionErrors } from './route-parts.ts'

/**
 * Where a document about one transaction (the case file, the receipt) is
 * downloaded: each party's own under their kind's prefix (others 404), and
 * the admin's for any transaction under /admin.
 */
export interface DocumentRoute {
  path: string
  tag: string
  admin: boolean
  find: (id: string, request: FastifyRequest) => Promise<TransactionRow>
}

export function documentRoutes(app: FastifyInstance, segment: string): DocumentRoute[] {
  return [
    ...transactionKinds.map((kind) => ({
      path: `${kindRoutes[kind].prefix}/transactions/:id/${segment}`,
      tag: kindRoutes[kind].tag,
      admin: false,
      find: (id: string, request: FastifyRequest) => findForParty(app.services.db, id, userOf(request).id, kind),
    })),
    {
      path: `/admin/transactions/:id/${segment}`,
      tag: 'admin',
      admin: true,
      find: (id, request) => {
        adminOf(request)
        return findById(app.services.db, id)
      },
    },
  ]
}

export const documentQuery = z.object({
  lang: z
    .enum(supportedLocales)
    .optional()
    .meta({ description: "the labels' language; without it, the caller's e-mail language (profile), else en_gb" }),
})

export function pdfResponse(what: string) {
  return {
    description: `${what} as a PDF, with \`Content-Disposition: attachment\``,
    content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
  }
}

/** A PDF about one transaction, as its routes need it: what it is called, and how it is made for one reader. */
export interface PdfDocument {
  /** The path's last segment (`case_file`, `receipt`). */
  segment: string
  /** What it is, for the OpenAPI answer ("The case file"). */
  what: string
  summary: { party: string; admin: string }
  description: string
  /** `pactum-case-…pdf`: named by the id's last 12 characters, its random part, as the admin console shortens ids. */
  fileName: (transactionId: string) => string
  /** Builds and lays out the PDF for this reader, in `locale`; refuses (throws) when the transaction has none yet. */
  render: (db: Kysely<Database>, row: TransactionRow, reader: { admin: boolean }, now: Date, locale: Locale) => Promise<Buffer>
}

/**
 * The routes of a PDF document: one GET per place (both kinds' prefixes and
 * /admin), the reader's language from `?lang=` or their e-mail language, and
 * the file sent as a download (`sendPdf`).
 */
export function pdfDocumentRoutes(document: PdfDocument): FastifyPluginAsyncZod {
  return async (app) => {
    for (const { path, tag, admin, find } of documentRoutes(app, document.segment)) {
      app.get(
        path,
        {
          onRequest: admin ? app.authenticateAdmin : app.authenticate,
          schema: {
            security: [{ bearer: [] }],
            tags: [tag],
            summary: admin ? document.summary.admin : document.summary.party,
            description: document.description,
            params: idParams,
            querystring: documentQuery,
            response: { 200: pdfResponse(document.what), ...transactionErrors },
          },
        },
        async (request, reply) => {
          const row = await find(request.params.id, request)
          const { db, clock } = app.services
          const locale = request.query.lang ?? notificationLanguage(await getLanguages(db, userOf(request).id))
          return sendPdf(reply, await document.render(db, row, { admin }, clock.now(), locale), document.fileName(row.id))
        },
      )
    }
  }
}
