import type { JsonSchema } from '../json-schema-arbitrary.ts'

/*
 * The operations the API fuzz (../api-fuzz.ts) covers, read from the
 * server's OpenAPI document: each one's method and path, the schemas of
 * its path, query and body, and who may call it.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface Operation {
  /** `POST /api/v1/transactions/{id}/track`, as the document names it. */
  name: string
  method: Method
  path: string
  pathParameters: JsonSchema
  queryParameters: JsonSchema
  body: JsonSchema | undefined
  /** The document says the operation takes multipart/form-data (identity uploads). */
  multipart: boolean
  signedIn: boolean
  admin: boolean
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
  components: { schemas: Record<string, JsonSchema> }
}

interface OpenApiOperation {
  parameters?: Array<{ in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema }>
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  security?: unknown[]
  description?: string
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? []
      const parametersIn = (place: 'path' | 'query'): JsonSchema => {
        const listed = parameters.filter((parameter) => parameter.in === place)
        return {
          type: 'object',
          properties: Object.fromEntries(listed.map((parameter) => [parameter.name, parameter.schema])),
          required: listed.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        }
      }
      const content = operation.requestBody?.content ?? {}
      // A message takes JSON or a multipart upload: the JSON schema is fuzzed, and the upload as the identity upload's is.
      const unexpected = Object.keys(content).filter((type) => type !== 'application/json' && type !== 'multipart/form-data')
      if (unexpected.length > 0) throw new Error(`${method} ${path}: request body of type ${unexpected.join(', ')} is not fuzzed yet`)
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Method,
        path,
        pathParameters: parametersIn('path'),
        queryParameters: parametersIn('query'),
        body: content['application/json']?.schema,
        multipart: 'multipart/form-data' in content || (operation.description?.includes('multipart/form-data') ?? false),
        signedIn: (operation.security?.length ?? 0) > 0,
        admin: path.startsWith('/api/v1/admin/'),
      })
    }
  }
  return operations
}
