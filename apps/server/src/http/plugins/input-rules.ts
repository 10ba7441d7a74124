import type { FastifySchemaCompiler } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import type { ZodType } from 'zod'
import { fieldError } from '../../errors.ts'

/**
 * Rules every request input obeys whatever its schema, applied where every
 * route's input is validated: text may not carry NUL or other control
 * characters (PostgreSQL refuses NUL in text; the rest has no business in a
 * description, a name or a search). Tab and line breaks stay allowed: a
 * description or complaint may have paragraphs.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's whole job
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/

/** The path of the first string holding a control character, or null. */
export function controlCharacterPath(value: unknown, path: readonly string[] = []): string[] | null {
  if (typeof value === 'string') return controlCharacter.test(value) ? [...path] : null
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = controlCharacterPath(item, [...path, String(index)])
      if (found) return found
    }
    return null
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (controlCharacter.test(key)) return [...path, key]
      const found = controlCharacterPath(item, [...path, key])
      if (found) return found
    }
  }
  return null
}

const checkedParts = new Set(['body', 'querystring', 'params'])

/** The zod validator, behind the rules above; the refusal names the field as schema errors do. */
export const inputValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route)
  return (data: unknown) => {
    const path = checkedParts.has(route.httpPart ?? '') ? controlCharacterPath(data) : null
    if (!path) return validate(data)
    return { error: fieldError([route.httpPart, ...path].join('.'), 'control characters (such as NUL) are not allowed') }
  }
}
