import { supportedLocales } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { adminOf, userOf } from '../../../http/plugins/authentication.ts'
import type { TransactionRow } from '../engine/transaction-state.ts'
import { findById, findForParty } from '../transactions-repository.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'

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
