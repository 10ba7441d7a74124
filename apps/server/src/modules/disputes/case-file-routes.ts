import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { userOf } from '../../http/plugins/authentication.ts'
import { sendPdf } from '../../pdf/send-pdf.ts'
import { notificationLanguage } from '../profile/profile.ts'
import { getLanguages } from '../transactions/parties-repository.ts'
import { documentQuery, documentRoutes, pdfResponse } from '../transactions/routes/document-routes.ts'
import { idParams, transactionErrors } from '../transactions/routes/route-parts.ts'
import { buildCaseFile, type CaseFileAudience } from './case-file.ts'
import { renderCaseFilePdf } from './case-file-pdf.ts'

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
    for (const { path, tag, admin, find } of documentRoutes(app, 'case_file')) {
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
            querystring: documentQuery,
            response: { 200: pdfResponse('The case file'), ...transactionErrors },
          },
        },
        async (request, reply) => {
          const row = await find(request.params.id, request)
          const audience: CaseFileAudience = admin ? 'admin' : 'party'
          const { db, clock } = app.services
          const file = await buildCaseFile(db, row, audience, clock.now())
          const locale = request.query.lang ?? notificationLanguage(await getLanguages(db, userOf(request).id))
          // Named by the id's last 12 characters, its random part, as the admin console shortens ids.
          return sendPdf(reply, await renderCaseFilePdf(file, locale), `pactum-case-${row.id.slice(-12)}.pdf`)
        },
      )
    }
  }
}
