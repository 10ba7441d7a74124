import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { isSafeReturnUrl } from '../../http/return-url.ts'
import { html, type SafeHtml } from '../../modules/sign-in/oidc/html.ts'
import { PaymentProviderError } from './provider-error.ts'
import type { SandboxIdentity } from './sandbox-identity.ts'
import { sendPage } from './sandbox-routes.ts'
import { perObjectAndAddress, sandboxPageScope } from './sandbox-page-scope.ts'
import { named } from '../../http/named-plugin.ts'

/**
 * The sandbox's hosted Identity page (what Stripe's verification flow is):
 * the tester chooses whether the document they "show" passes, the session
 * goes to `processing`, and the browser returns to Pactum. Server-rendered,
 * no script, forms posting to our own origin.
 */
const title = 'Pactum sandbox · Identity'
const paramsSchema = z.object({ id: z.string().min(1).max(100) })
const querySchema = z.object({ client_secret: z.string().min(1).max(200), return_url: z.string().max(2000) })
const formSchema = querySchema.extend({ outcome: z.enum(['verified', 'unverified']) })

export async function sandboxIdentityRoutes(app: FastifyInstance, deps: { identity: SandboxIdentity }): Promise<void> {
  const { identity } = deps
  const plugin = named('sandbox-identity-pages', async (plain: FastifyInstance) => {
    const scope = await sandboxPageScope(plain)
    const limit = perObjectAndAddress

    scope.get(
      '/sandbox/identity/:id',
      { config: { rateLimit: limit }, schema: { hide: true, params: paramsSchema, querystring: querySchema } },
      async (request, reply) => {
        const { client_secret: clientSecret, return_url: returnUrl } = request.query
        if (!isSafeReturnUrl(returnUrl)) return sendPage(reply, 400, messagePage('This verification link is not valid.'), title)
        const session = await identity.retrieveForClient(request.params.id, clientSecret).catch(() => null)
        if (!session) return sendPage(reply, 404, messagePage('This verification does not exist.'), title)
        if (session.status !== 'requires_input') {
          return sendPage(
            reply,
            409,
            messagePage(`This verification is no longer waiting for a document (${session.status}).`, returnUrl),
            title,
          )
        }
        return sendPage(reply, 200, verifyPage(session.id, clientSecret, returnUrl, session.last_error), title)
      },
    )

    scope.post(
      '/sandbox/identity/:id',
      { config: { rateLimit: limit }, schema: { hide: true, params: paramsSchema, body: formSchema } },
      async (request, reply) => {
        const { client_secret: clientSecret, return_url: returnUrl, outcome } = request.body
        if (!isSafeReturnUrl(returnUrl)) return sendPage(reply, 400, messagePage('This verification link is not valid.'), title)
        try {
          await identity.submit(request.params.id, clientSecret, outcome)
        } catch (error) {
          if (error instanceof PaymentProviderError && error.code === 'not_found') {
            return sendPage(reply, 404, messagePage('This verification does not exist.'), title)
          }
          if (error instanceof PaymentProviderError && error.code === 'invalid_state') {
            return sendPage(reply, 409, messagePage('This verification is no longer waiting for a document.', returnUrl), title)
          }
          throw error
        }
        return reply.status(303).header('location', returnUrl).send()
      },
    )
  })
  await app.register(plugin)
}

function verifyPage(id: string, clientSecret: string, returnUrl: string, lastError: string | null): SafeHtml {
  const action = `/sandbox/identity/${encodeURIComponent(id)}`
  const hidden = html`<input type="hidden" name="client_secret" value="${clientSecret}" />
    <input type="hidden" name="return_url" value="${returnUrl}" />`
  return html`<p class="badge">Sandbox · Identity</p>
    <h1>Verify your identity</h1>
    ${lastError ? html`<p role="alert">${lastError}</p>` : ''}
    <p>
      This is Pactum's sandbox verification page. No document is needed: choose what the check will find. The answer arrives a few seconds
      later.
    </p>
    <div class="actions">
      <form method="post" action="${action}">
        ${hidden}<button type="submit" name="outcome" value="verified" class="primary">Submit a valid document</button>
      </form>
      <form method="post" action="${action}">
        ${hidden}<button type="submit" name="outcome" value="unverified" class="secondary">Submit a document that fails</button>
      </form>
    </div>`
}

function messagePage(message: string, returnUrl?: string): SafeHtml {
  return html`<p class="badge">Sandbox · Identity</p>
    <h1>${message}</h1>
    ${returnUrl && isSafeReturnUrl(returnUrl) ? html`<p><a href="${returnUrl}">Back to Pactum</a></p>` : ''}`
}
