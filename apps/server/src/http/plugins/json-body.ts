import type { FastifyInstance } from 'fastify'

/**
 * JSON bodies, with one difference from Fastify's own parser: an empty body
 * sent as `Content-Type: application/json` is no body, as if the header had
 * not been sent. Many clients send the header on every call, bodiless POSTs
 * (`pay`, `confirm_delivery`, `accept_tos_direct`) included; Fastify would
 * answer those 400 `FST_ERR_CTP_EMPTY_JSON_BODY`. A route that needs a body
 * still refuses the missing one through its schema, naming `body`. Everything
 * else (size limit, `__proto__` and `constructor` keys refused) is Fastify's
 * parser unchanged.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    if (text === '') {
      done(null, undefined)
      return
    }
    parseJson(request, text, done)
  })
}
