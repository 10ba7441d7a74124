import { errorBodySchema } from '@pactum/contracts/errors'
import { publicVerificationSchema, verifyCodeParams } from '@pactum/contracts/verify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { badgeSvg } from './badge.ts'
import { publicVerification } from './public-verification.ts'

/**
 * Per client address: a code cannot be guessed (128 bits), and nobody needs
 * to check many sales a minute. The badge has its own, larger count: every
 * visitor of a partner's page fetches it, once a minute at most (its cache).
 */
const perAddress = (name: string, max: number) => ({
  rateLimit: { max, timeWindow: 60_000, keyGenerator: (request: FastifyRequest) => `${name}:${request.ip}` },
})

const errors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema }

/**
 * Nothing but the picture: no script, no style sheet or font from elsewhere,
 * no link, and not a page to frame. `sandbox` also stops a browser that
 * opens the SVG on its own from running anything in it.
 */
const badgePolicy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox"

/**
 * The public verification of a sale's escrow (issue 35 item 4,
 * docs/decisions/114-escrow-you-can-check.md): no sign-in, the code is the
 * capability. Both answers may be cached briefly by the browser only: the
 * state changes as the sale moves on.
 */
export const verifyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/verify/:code',
    {
      config: perAddress('verify', 30),
      schema: {
        tags: ['verification'],
        summary: 'Whether Pactum holds, held or does not yet hold a sale’s money (public, by the code of its verification link)',
        description:
          'What the page `/verify/<code>` shows: the state of the escrow, the amount, the dates, the parties’ first names and masked e-mail addresses, and the partner’s name. Nothing else. An unknown or malformed code answers 404. Rate-limited per address.',
        security: [],
        params: verifyCodeParams,
        response: { 200: publicVerificationSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, max-age=30')
      return app.services.replicaReads.read((db) => publicVerification(db, request.params.code))
    },
  )

  app.get(
    '/verify/:code/badge.svg',
    {
      config: perAddress('verify-badge', 120),
      schema: {
        tags: ['verification'],
        summary: 'A badge for a partner’s page: "Escrow verified by Pactum · <state> · <amount>" (SVG, public)',
        description:
          'Embed it as `<a href="VERIFY_URL"><img src="BADGE_URL" alt="Escrow verified by Pactum"></a>`. Drawn by Pactum from its own data on every request; cached for a minute.',
        security: [],
        params: verifyCodeParams,
        response: {
          200: { description: 'the badge', content: { 'image/svg+xml': { schema: z.string() } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const svg = badgeSvg(await app.services.replicaReads.read((db) => publicVerification(db, request.params.code)))
      return (
        reply
          .header('Cache-Control', 'public, max-age=60')
          .header('Content-Security-Policy', badgePolicy)
          // Partners' pages show it: an <img> from another site needs this (helmet's default is same-origin).
          .header('Cross-Origin-Resource-Policy', 'cross-origin')
          .type('image/svg+xml; charset=utf-8')
          .send(svg)
      )
    },
  )
}
