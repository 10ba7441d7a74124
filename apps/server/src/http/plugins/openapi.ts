import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { withExamples } from './openapi-examples.ts'
import { withOperationDefaults, withoutUnusedSchemas, withResponseDescriptions } from './openapi-operations.ts'

/**
 * The OpenAPI document is generated from the same zod schemas that validate
 * requests, served as JSON at /api/docs/json with an interactive reference
 * at /api/docs.
 */
export async function registerOpenApi(app: FastifyInstance, options: { publicUrl: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pactum API',
        description:
          'Escrow for person-to-person sales. Amounts are integers in the currency minor unit; ' +
          'errors are `{code, error, details}`; every call may carry `X-Request-Id`.',
        version: '1.0.0',
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // Partner clients' keys (guest transactions): `<client_id>.<secret>`.
          partnerApiKey: { type: 'apiKey', in: 'header', name: 'X-Pactum-Api-Key' },
        },
      },
    },
    // Every operation gets its operationId, description, security and a 4xx
    // answer here, from its method, path and authorization row, and every
    // answer a description by its status (decision 115).
    transform: (input) =>
      jsonSchemaTransform({
        ...input,
        schema: input.schema && withOperationDefaults(input.schema, String(input.route.method), input.url),
      }),
    transformObject: (input) => withResponseDescriptions(withExamples(withoutUnusedSchemas(jsonSchemaTransformObject(input)))),
  })
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: false,
    uiConfig: { deepLinking: true },
  })
}
