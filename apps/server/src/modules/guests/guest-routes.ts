import { errorBodySchema } from '@pactum/contracts/errors'
import { f2fTransactionSchema } from '@pactum/contracts/f2f-transactions'
import { claimPreviewSchema, claimSecretParams, invitationLandingSchema } from '@pactum/contracts/guest-transactions'
import { transactionSchema } from '@pactum/contracts/transactions'
import type { Party } from '@pactum/domain/transactions/kernel'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { claimGuestTransaction, invitationLanding, previewClaim } from './guest-invitations.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import { toAnyTransactionView, type ViewContext } from '../transactions/transaction-view.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { joinRateLimit, transactionErrors } from '../transactions/routes/route-parts.ts'

const errors = { ...transactionErrors, 410: errorBodySchema, 429: errorBodySchema }
const secured = { security: [{ bearer: [] }], tags: ['guest transactions'] }

/**
 * Guest transactions (issue 12 #2): the invitee's preview and claim, by the
 * secret of their e-mailed link (guessable only in theory, still counted
 * like join codes). A partner's `POST /partner/guest_transactions` is in
 * partner-api/partner-transaction-routes.ts.
 */
export function guestRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })

    app.get(
      '/transactions_by_claim_secret/:secret',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: {
          ...secured,
          summary: 'What an invitation offers, before claiming it',
          params: claimSecretParams,
          response: { 200: claimPreviewSchema, ...errors },
        },
      },
      async (request) => previewClaim(app.services.db, userOf(request), request.params.secret, deps().clock.now()),
    )

    app.get(
      '/guest_invitations/:secret',
      {
        // No sign-in: the invitee may have no account yet. Counted per address, as join codes are without a user.
        config: joinRateLimit,
        schema: {
          tags: ['guest transactions'],
          summary: 'Who invited the link’s holder to what, before signing in (unknown 404, accepted 409, expired 410)',
          params: claimSecretParams,
          response: { 200: invitationLandingSchema, ...errors },
        },
      },
      async (request, reply) => {
        // The invited address and the offer: not for shared caches or the browser's back-forward store.
        reply.header('Cache-Control', 'no-store')
        return invitationLanding(app.services.db, request.params.secret, deps().clock.now())
      },
    )

    const claimRoute = (kind: TransactionKind, role: Party) => {
      const prefix = kind === 'f2f' ? '/p2p' : ''
      app.post(
        `${prefix}/transactions_by_claim_secret/:secret/claim_as_${role}`,
        {
          onRequest: app.authenticate,
          config: joinRateLimit,
          schema: {
            ...secured,
            summary: `Take the ${role}'s place in the ${kind === 'f2f' ? 'face-to-face' : 'online'} transaction an invitation offers (single use)`,
            params: claimSecretParams,
            response: { 200: kind === 'f2f' ? f2fTransactionSchema : transactionSchema, ...errors },
          },
        },
        async (request) => {
          const user = userOf(request)
          const row = await claimGuestTransaction(deps(), user, request.params.secret, role, kind)
          return toAnyTransactionView(row, user, context())
        },
      )
    }
    claimRoute('online', 'buyer')
    claimRoute('online', 'seller')
    claimRoute('f2f', 'buyer')
    claimRoute('f2f', 'seller')
  }
}
