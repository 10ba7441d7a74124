import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ProviderRateLimitedError } from '../../adapters/payment-provider/provider-error.ts'
import { AppError } from '../../errors.ts'
import { registerErrorHandler } from './error-handler.ts'

function appWithRoutes() {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)
  app.post('/things', { schema: { body: z.object({ price: z.number().int().min(100), name: z.string().min(1) }) } }, async () => ({
    ok: true,
  }))
  app.get('/conflict', async () => {
    throw new AppError('already_paid', 'The transaction is already paid', { details: { status: 'paid' } })
  })
  app.get('/provider-busy', async () => {
    throw new ProviderRateLimitedError('Request rate limit exceeded')
  })
  app.get('/crash', async () => {
    throw new Error('connection string postgres://secret@db leaked?')
  })
  return app
}

/** A POST of `payload` as `contentType` to the route that takes a JSON body. */
function postThing(contentType: string, payload: string) {
  return appWithRoutes().inject({ method: 'POST', url: '/things', headers: { 'content-type': contentType }, payload })
}

describe('error handler', () => {
  it('answers 503 with Retry-After when the payment provider asks us to slow down: nothing was done, the request may come again', async () => {
    const response = await appWithRoutes().inject({ method: 'GET', url: '/provider-busy' })
    expect(response.statusCode).toBe(503)
    expect(response.headers['retry-after']).toBe('1')
    expect(response.json()).toMatchObject({ code: 'service_unavailable' })
  })

  it('names the bad field of a validation error', async () => {
    const response = await appWithRoutes().inject({ method: 'POST', url: '/things', payload: { price: 5, name: 'x' } })
    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe('validation_failed')
    expect(body.error).toMatch(/^body\.price: /)
    expect(body.details.fields[0].field).toBe('body.price')
  })

  it('answers a body it cannot parse (malformed JSON, none, a prototype key) with 400 in the same shape, naming the body', async () => {
    for (const payload of ['{', '', '{"name": "x", "__proto__": {"admin": true}}']) {
      const response = await postThing('application/json', payload)
      expect(response.statusCode, payload).toBe(400)
      const body = response.json()
      expect(body.code, payload).toBe('validation_failed')
      expect(body.details.fields[0].field, payload).toBe('body')
      expect(body.error, payload).toMatch(/^body: /)
    }
  })

  it('answers an unsupported content type with 415', async () => {
    const response = await postThing('application/x-unknown', 'x')
    expect(response.statusCode).toBe(415)
    expect(response.json().code).toBe('unsupported_media_type')
  })

  it('maps a documented refusal to its status and keeps its details', async () => {
    const response = await appWithRoutes().inject({ url: '/conflict' })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({
      code: 'already_paid',
      error: 'The transaction is already paid',
      details: { status: 'paid' },
    })
  })

  it('never leaks internals in a 500', async () => {
    const response = await appWithRoutes().inject({ url: '/crash' })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({ code: 'internal_error', error: 'Something went wrong on our side' })
    expect(response.body).not.toContain('postgres')
  })

  it('answers unknown routes with not_found', async () => {
    const response = await appWithRoutes().inject({ url: '/nope?secret=1' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ code: 'not_found', error: 'No route for GET /nope' })
  })
})
