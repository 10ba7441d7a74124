import type { FastifyInstance, FastifySchemaCompiler } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import type { ZodType } from 'zod'
import { AppError, fieldError } from '../../errors.ts'

/**
 * Rules every request input obeys whatever its schema, applied where every
 * route's input is validated:
 * - text may not carry NUL or other control characters (PostgreSQL refuses
 *   NUL in text; the rest has no business in a description, a name or a
 *   search). Tab and line breaks stay allowed: a description or complaint
 *   may have paragraphs;
 * - nothing nests deeper than `maxDepth`: no request of the API needs more
 *   than a few levels, and a body of 5,000 nested arrays (well under the
 *   body limit) would otherwise overflow the stack of whatever walks it.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's whole job
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
const controlCharacterMessage = 'control characters (such as NUL) are not allowed'
export const maxDepth = 32

/** Where the input first breaks a rule, and how; or null. */
export function inputRuleBreach(value: unknown, path: readonly string[] = []): { path: string[]; message: string } | null {
  if (typeof value === 'string') return controlCharacter.test(value) ? { path: [...path], message: controlCharacterMessage } : null
  if (value === null || typeof value !== 'object') return null
  if (path.length >= maxDepth) return { path: [...path], message: `nested deeper than ${maxDepth} levels` }
  const entries = Array.isArray(value) ? value.map((item, index): [string, unknown] => [String(index), item]) : Object.entries(value)
  for (const [key, item] of entries) {
    if (controlCharacter.test(key)) return { path: [...path, key], message: controlCharacterMessage }
    const found = inputRuleBreach(item, [...path, key])
    if (found) return found
  }
  return null
}

const checkedParts = new Set(['body', 'querystring', 'params'])

/** The zod validator, behind the rules above; the refusal names the field as schema errors do. */
export const inputValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route)
  return (data: unknown) => {
    const breach = checkedParts.has(route.httpPart ?? '') ? inputRuleBreach(data) : null
    if (!breach) return validate(data)
    return { error: fieldError([route.httpPart, ...breach.path].join('.'), breach.message) }
  }
}

/**
 * Request bodies are read as sent: none of our routes inflates gzip, deflate
 * or br, and a compressed body would otherwise reach a parser as bytes that
 * are not what its Content-Type says (or, inflated, could be far larger than
 * the body limit). A request announcing any coding but `identity` is
 * refused before its body is read: 415 `unsupported_content_encoding`.
 */
export function registerContentEncodingRule(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const header = request.headers['content-encoding']
    if (header === undefined) return
    const codings = header
      .split(',')
      .map((coding) => coding.trim().toLowerCase())
      .filter(Boolean)
    if (codings.every((coding) => coding === 'identity')) return
    throw new AppError('unsupported_content_encoding', 'Send the request body uncompressed (no Content-Encoding, or identity)', {
      details: { field: 'headers.content-encoding', accepted: ['identity'] },
    })
  })
}
