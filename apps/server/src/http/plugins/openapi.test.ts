import path from 'node:path'
import { lintFromString, loadConfig, type NormalizedProblem } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { authorizationMatrix } from '../authorization-matrix.ts'
import { operationIdFor, securityFor } from './openapi-operations.ts'

interface Operation {
  operationId?: string
  description?: string
  security?: unknown[]
  parameters?: unknown[]
  requestBody?: unknown
  responses: Record<string, unknown>
}
interface Document {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Record<string, unknown>> }
}

const repositoryRoot = path.resolve(import.meta.dirname, '../../../../..')

let testApp: TestApp
let document: Document
let source: string
beforeAll(async () => {
  testApp = await createTestApp()
  source = (await testApp.app.inject({ url: '/api/docs/json' })).body
  document = JSON.parse(source)
})
afterAll(() => testApp.close())

function operations() {
  return Object.entries(document.paths).flatMap(([url, item]) =>
    Object.entries(item).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${url}`, url, operation })),
  )
}

describe('operation ids', () => {
  it('name the method and the path, a parameter only where it ends or begins the path', () => {
    expect(operationIdFor('POST', '/api/v1/transactions/:id/track')).toBe('postTransactionsTrack')
    expect(operationIdFor('GET', '/api/v1/transactions/:id')).toBe('getTransactionsById')
    expect(operationIdFor('GET', '/api/v1/transactions')).toBe('getTransactions')
    expect(operationIdFor('GET', '/api/v1/p2p/transactions/:id/messages/:message_id/attachment')).toBe(
      'getP2pTransactionsMessagesAttachment',
    )
    expect(operationIdFor('DELETE', '/api/v1/me/passkeys/:passkey_id')).toBe('deleteMePasskeysByPasskeyId')
    expect(operationIdFor('GET', '/api/v1/:listingType/:id')).toBe('getByListingTypeById')
    expect(operationIdFor('GET', '/app_api/balance')).toBe('getBalance')
    expect(operationIdFor('POST', '/sandbox/v1/payment_intents/:id/confirm')).toBe('postSandboxV1PaymentIntentsConfirm')
  })
})

describe('the OpenAPI document, for generated clients', () => {
  it('gives every operation an operationId of its own', () => {
    const ids = operations().map(({ key, operation }) => [key, operation.operationId] as const)
    expect(ids.filter(([, id]) => !id || !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([])
    const owners = new Map<string, string[]>()
    for (const [key, id] of ids) owners.set(id as string, [...(owners.get(id as string) ?? []), key])
    expect([...owners].filter(([, keys]) => keys.length > 1)).toEqual([])
  })

  it('gives every operation a description, at least one 4xx answer and a security declaration', () => {
    const lacking = operations().flatMap(({ key, operation }) => [
      ...(operation.description ? [] : [`${key}: no description`]),
      ...(Object.keys(operation.responses).some((status) => status.startsWith('4')) ? [] : [`${key}: no 4xx answer`]),
      ...(Array.isArray(operation.security) ? [] : [`${key}: no security, not even an empty one`]),
    ])
    expect(lacking).toEqual([])
  })

  it('describes every answer: none is left with the generator’s "Default Response"', () => {
    const answers = operations().flatMap(({ key, operation }) =>
      Object.entries(operation.responses).map(
        ([status, answer]) => [`${key} ${status}`, (answer as { description?: string }).description] as const,
      ),
    )
    expect(answers.length).toBeGreaterThan(500)
    expect(answers.filter(([, description]) => !description || description === 'Default Response').map(([where]) => where)).toEqual([])
  })

  it('leaves the generic 4XX answer to calls that take no input: one that does names its own refusals', () => {
    const generic = operations().filter(
      ({ operation }) => '4XX' in operation.responses && !Object.keys(operation.responses).some((s) => /^4\d\d$/.test(s)),
    )
    expect(generic.filter(({ operation }) => operation.parameters?.length || operation.requestBody).map(({ key }) => key)).toEqual([])
  })

  it('declares the security the authorization matrix enforces', () => {
    const documented = operations()
    expect(documented.length).toBeGreaterThan(0)
    for (const { key, url, operation } of documented) {
      const routeKey = key.replace(url, url.replace(/\{([^}]+)\}/g, ':$1'))
      expect(routeKey in authorizationMatrix, `${routeKey} is in the authorization matrix`).toBe(true)
      expect(operation.security, routeKey).toEqual(securityFor(routeKey))
    }
  })

  it('shows a partner a whole request and answer for a guest transaction, and a transaction as read', () => {
    type JsonExamples = { content: { 'application/json': { examples: Record<string, { value: Record<string, unknown> }> } } }
    const valuesOf = (body: unknown) => Object.values((body as JsonExamples).content['application/json'].examples).map((e) => e.value)
    const partner = document.paths['/api/v1/partner/guest_transactions']!.post as Operation & { requestBody: unknown }
    expect(valuesOf(partner.requestBody)).toEqual([
      expect.objectContaining({ buyer_email: expect.any(String), seller_email: expect.any(String) }),
    ])
    expect(valuesOf(partner.responses['201'])).toEqual([expect.objectContaining({ id: expect.any(String), status: 'created' })])
    expect(valuesOf(document.paths['/api/v1/transactions/{id}']!.get!.responses['200'])).toEqual([
      expect.objectContaining({ type: 'online', status: 'tracked' }),
    ])
  })

  it('shows a partner its webhook endpoint made, with the secret, and the event feed with a whole event', () => {
    type JsonExamples = { content: { 'application/json': { examples: Record<string, { value: Record<string, unknown> }> } } }
    const valuesOf = (body: unknown) => Object.values((body as JsonExamples).content['application/json'].examples).map((e) => e.value)
    const register = document.paths['/api/v1/partner/webhook_endpoints']!.post as Operation & { requestBody: unknown }
    expect(valuesOf(register.requestBody)).toEqual([expect.objectContaining({ url: expect.stringMatching(/^https:/) })])
    expect(valuesOf(register.responses['201'])).toEqual([expect.objectContaining({ secret: expect.stringMatching(/^whsec_/) })])
    const [feed] = valuesOf(document.paths['/api/v1/partner/events']!.get!.responses['200']) as Array<{ events: unknown[] }>
    expect(feed?.events).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^evt_/), data: expect.objectContaining({ sequence: 4 }) }),
    ])
  })

  it("passes Redocly's lint with the repository's redocly.yaml, warnings included", async () => {
    expect((await lint(source)).map(describeProblem)).toEqual([])
  })

  it('has a lint that would see an operation without an operationId or a 4xx answer, or a wrong example', async () => {
    const broken = JSON.parse(source) as Document
    const health = broken.paths['/api/v1/health']!.get!
    delete health.operationId
    health.responses = { '200': health.responses['200'] }
    const read = broken.paths['/api/v1/transactions/{id}']!.get!.responses['200'] as {
      content: { 'application/json': { examples: Record<string, { value: Record<string, unknown> }> } }
    }
    read.content['application/json'].examples.tracked!.value.price = 'a hundred'
    const ruleIds = (await lint(JSON.stringify(broken))).map((problem) => problem.ruleId)
    expect(ruleIds).toEqual(expect.arrayContaining(['operation-operationId', 'operation-4xx-response', 'no-invalid-media-type-examples']))
  })
})

async function lint(text: string) {
  const config = await loadConfig({ configPath: path.join(repositoryRoot, 'redocly.yaml') })
  return lintFromString({ source: text, absoluteRef: path.join(repositoryRoot, 'openapi.json'), config })
}

function describeProblem(problem: NormalizedProblem): string {
  return `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`
}
