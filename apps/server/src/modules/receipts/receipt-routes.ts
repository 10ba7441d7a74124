import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { userOf } from '../../http/plugins/authentication.ts'
import { sendPdf } from '../../pdf/send-pdf.ts'
import { notificationLanguage } from '../profile/profile.ts'
import { getLanguages } from '../transactions/parties-repository.ts'
import { documentQuery, documentRoutes, pdfResponse } from '../transactions/routes/document-routes.ts'
import { idParams, transactionErrors } from '../transactions/routes/route-parts.ts'
import { buildReceipt } from './receipt.ts'
import { renderReceiptPdf } from './receipt-pdf.ts'

const description =
  'One PDF with the parties, the item, the price and fees, every payment received (amount, fee, payment method, ' +
  "the provider's payment reference, the ledger entry) and every release, refund or split so far (to whom, how much, " +
  'the ledger entry), and the legal lines of the terms. Only once the buyer has paid (online: the payment; ' +
  'face to face: the deposit); 409 `not_paid` before.'

/**
 * GET …/receipt (issue 33): each party's for their own transaction under
 * their kind's prefix (others 404), and the admin's for any.
 */
export function receiptRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    for (const { path, tag, admin, find } of documentRoutes(app, 'receipt')) {
      app.get(
        path,
        {
          onRequest: admin ? app.authenticateAdmin : app.authenticate,
          schema: {
            security: [{ bearer: [] }],
            tags: [tag],
            summary: admin ? 'The receipt as a PDF (any paid transaction)' : 'The receipt as a PDF (either party, once paid)',
            description,
            params: idParams,
            querystring: documentQuery,
            response: { 200: pdfResponse('The receipt'), ...transactionErrors },
          },
        },
        async (request, reply) => {
          const row = await find(request.params.id, request)
          const { db, clock } = app.services
          const receipt = await buildReceipt(db, row, clock.now())
          const locale = request.query.lang ?? notificationLanguage(await getLanguages(db, userOf(request).id))
          return sendPdf(reply, await renderReceiptPdf(receipt, locale), `pactum-receipt-${row.id.slice(-12)}.pdf`)
        },
      )
    }
  }
}
