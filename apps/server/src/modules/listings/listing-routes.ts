import { errorBodySchema } from '@pactum/contracts/errors'
import { anyTransactionSchema } from '@pactum/contracts/f2f-transactions'
import {
  createFromListingBodySchema,
  createListingBodySchema,
  type ListingType,
  ownListingListSchema,
  listingPathSegments,
  listingPreviewSchema,
  listingSchema,
  updateListingBodySchema,
} from '@pactum/contracts/listings'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { listingNotFound, listingTypeOfSegment, toListingView } from './listings-repository.ts'
import { buyFromListing, previewListing } from './buy-from-listing.ts'
import { closeListing, createListing, listOwnListings, updateListing } from './manage-listings.ts'
import type { Config } from '../../config.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import { toAnyTransactionView, type ViewContext } from '../transactions/transaction-view.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { idParams, joinRateLimit, perUserLimit, transactionErrors } from '../transactions/routes/route-parts.ts'
import { knownClientId } from '../partner-clients/known-client.ts'

const errors = transactionErrors
const secured = { security: [{ bearer: [] }], tags: ['listings'] }
const previewErrors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema }

/**
 * Sellers' listings (issue 12 #1): the seller's own calls under /me, the
 * public previews a buyer opens by link, and the purchase that makes the
 * caller the buyer of a new transaction. Listing ids are the link's secret,
 * so the previews and purchases are rate-limited like join codes.
 */
export function listingRoutes(deps: () => TransactionDeps & { config: Config }): FastifyPluginAsyncZod {
  return async (app) => {
    const publicUrl = () => deps().config.publicUrl
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })

    app.post(
      '/me/listings',
      {
        onRequest: app.authenticate,
        preHandler: perUserLimit(app, 'listing_creates'),
        schema: {
          ...secured,
          summary: 'Create a single-use or multi-use listing (price; deposit_price for face-to-face)',
          body: createListingBodySchema,
          querystring: z.object({ client_id: z.string().max(64).optional() }),
          response: { 201: listingSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const row = await createListing(
          deps(),
          userOf(request),
          request.body,
          await knownClientId(app.services.db, request.query.client_id),
        )
        return reply.status(201).send(toListingView(row, publicUrl()))
      },
    )

    app.get(
      '/me/listings',
      {
        onRequest: app.authenticate,
        preHandler: perUserLimit(app, 'list_reads'),
        schema: {
          ...secured,
          summary: 'My listings, newest first, each with its purchases counted',
          response: { 200: ownListingListSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request) => listOwnListings(app.services.db, userOf(request), publicUrl()),
    )

    app.patch(
      '/me/listings/:id',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Change an open listing of mine',
          params: idParams,
          body: updateListingBodySchema,
          response: { 200: listingSchema, ...errors },
        },
      },
      async (request) => toListingView(await updateListing(deps(), userOf(request), request.params.id, request.body), publicUrl()),
    )

    app.post(
      '/me/listings/:id/close',
      {
        onRequest: app.authenticate,
        schema: { ...secured, summary: 'Close a listing of mine', params: idParams, response: { 200: listingSchema, ...errors } },
      },
      async (request) => toListingView(await closeListing(deps(), userOf(request), request.params.id), publicUrl()),
    )

    const preview = (type: ListingType | null) => async (request: { params: { id: string } }) =>
      previewListing(app.services.db, publicUrl(), request.params.id, type)
    for (const type of ['single_use', 'multi_use'] as const) {
      const segment = listingPathSegments[type]
      app.get(
        `/${segment}/:id`,
        {
          config: joinRateLimit,
          schema: {
            tags: ['listings'],
            summary: `Preview a ${type.replace('_', '-')} listing (no sign-in needed)`,
            params: idParams,
            response: { 200: listingPreviewSchema, ...previewErrors },
          },
        },
        preview(type),
      )
      app.post(
        `/${segment}/:id/create_transaction`,
        {
          onRequest: app.authenticate,
          config: joinRateLimit,
          preHandler: perUserLimit(app, 'transaction_creates'),
          schema: {
            ...secured,
            summary: `Buy from a ${type.replace('_', '-')} listing: a new transaction with the caller as buyer, waiting for the seller's acceptance`,
            params: idParams,
            body: createFromListingBodySchema,
            response: { 201: anyTransactionSchema, ...errors, 429: errorBodySchema },
          },
        },
        async (request, reply) => {
          const user = userOf(request)
          const row = await buyFromListing(deps(), user, request.params.id, type, request.body)
          return reply.status(201).send(toAnyTransactionView(row, user, context()))
        },
      )
    }

    // A listing link does not say its type: one look-up of either, where asking one type and then,
    // after its 404, the other put a 4xx in every multi-use buyer's console (issue 33 item 13).
    app.get(
      '/listings/:id',
      {
        config: joinRateLimit,
        schema: {
          tags: ['listings'],
          summary: 'Preview a listing of either type (`listing_type` says which; no sign-in needed)',
          params: idParams,
          response: { 200: listingPreviewSchema, ...previewErrors },
        },
      },
      preview(null),
    )
    app.get(
      '/:listingType/:id',
      {
        config: joinRateLimit,
        schema: {
          tags: ['listings'],
          summary: 'Preview a listing of either type by its path segment (single_use_listings, multi_use_listings)',
          params: z.object({ listingType: z.string(), id: z.string() }),
          response: { 200: listingPreviewSchema, ...previewErrors },
        },
      },
      async (request) => {
        const type = listingTypeOfSegment(request.params.listingType)
        // Any other segment is no listing (and no route): the same 404.
        if (!type) throw listingNotFound()
        return previewListing(app.services.db, publicUrl(), request.params.id, type)
      },
    )
  }
}
