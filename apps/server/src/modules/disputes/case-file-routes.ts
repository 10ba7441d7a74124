import { supportedLocales } from '@pactum/domain/locales'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { adminOf, userOf } from '../../http/plugins/authentication.ts'
import { notificationLanguage } from '../profile/profile.ts'
import { getLanguages } from '../transactions/parties-repository.ts'
import { kindRoutes, transactionKinds } from '../transactions/routes/kinds.ts'
import { idParams, transactionErrors } from '../transactions/routes/route-parts.ts'
import { findById, findForParty } from '../transactions/transactions-repository.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { buildCaseFile, type CaseFileAudience } from './case-file.ts'
import { renderCaseFilePdf } from './case-file-pdf.ts'

const caseFileQuery = z.object({
  lang: z
    .enum(supportedLocales)
    .optional()
    .meta({ description: "the labels' language; without it, the caller's e-mail language (profile), else en_gb" }),
})
const pdfResponse = {
  description: 'The case file as a PDF, with `Content-Disposition: attachment`',
  content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
}
const description =
  'One PDF with the transaction, the complaint and its deadlines, the settlement offers, every step of the history, ' +
  'the messages, the evidence (every attachment with its SHA-256 as the history recorded it) and the decision. ' +
  'Only once the transaction has a complaint (404 `not_found` before, as GET …/case).'

/**
 * GET …/case_file (issue 32 item 4): the admin's for any transaction, and
 * each party's for their own under their kind's prefix (others 404).
 */
export function caseFileRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    const routes: Array<{
      path: string
      tag: string
      admin: boolean
      find: (id: string, request: FastifyRequest) => Promise<TransactionRow>
    }> = [
      ...transactionKinds.map((kind) => ({
        path: `${kindRoutes[kind].prefix}/transactions/:id/case_file`,
        tag: kindRoutes[kind].tag,
        admin: false,
        find: (id: string, request: FastifyRequest) => findForParty(app.services.db, id, userOf(request).id, kind),
      })),
      {
        path: '/admin/transactions/:id/case_file',
        tag: 'admin',
        admin: true,
        find: (id, request) => {
          adminOf(request)
          return findById(app.services.db, id)
        },
      },
    ]

    for (const { path, tag, admin, find } of routes) {
      app.get(
        path,
        {
          onRequest: admin ? app.authenticateAdmin : app.authenticate,
          schema: {
            security: [{ bearer: [] }],
            tags: [tag],
            summary: admin ? 'The case file as one PDF (any transaction with a complaint)' : 'The case file as one PDF (either party)',
            description,
            params: idParams,
            querystring: caseFileQuery,
            response: { 200: pdfResponse, ...transactionErrors },
          },
        },
        async (request, reply) => {
          const row = await find(request.params.id, request)
          const audience: CaseFileAudience = admin ? 'admin' : 'party'
          const { db, clock } = app.services
          const file = await buildCaseFile(db, row, audience, clock.now())
          const locale = request.query.lang ?? notificationLanguage(await getLanguages(db, userOf(request).id))
          return sendPdf(reply, await renderCaseFilePdf(file, locale), row.id)
        },
      )
    }
  }
}

/** Named by the id's last 12 characters, its random part, as the admin console shortens ids. */
function sendPdf(reply: FastifyReply, pdf: Buffer, transactionId: string) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(pdf.byteLength))
    .header('content-disposition', `attachment; filename="pactum-case-${transactionId.slice(-12)}.pdf"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(pdf)
}
