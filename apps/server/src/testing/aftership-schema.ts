import { readFileSync } from 'node:fs'

/**
 * AfterShip's published shapes for the Tracking API version Pactum calls,
 * as its official Node SDK types them (fixtures/aftership-tracking-sdk-17.0.0.json,
 * extracted from @aftership/tracking-sdk 17.0.0's src/model for API
 * 2026-07). The fake checks the requests it receives against them, and its
 * tests check its answers, so that the adapter and the fake cannot share a
 * misreading of the API (STYLE.md, "A fake answers to the provider's documents").
 */
interface Fixture {
  apiVersion: string
  models: Record<string, Record<string, { type: string; optional: boolean }>>
  enums: Record<string, string[]>
  metaCodes: Record<string, string>
}

export const aftershipSdk = JSON.parse(
  readFileSync(new URL('./fixtures/aftership-tracking-sdk-17.0.0.json', import.meta.url), 'utf8'),
) as Fixture

/** What in `value` does not match the SDK's model `model` (unknown fields, missing required ones, wrong types); empty when it matches. */
export function aftershipSchemaProblems(model: string, value: unknown, path: string = model): string[] {
  return checkModel(model, value, path)
}

function checkModel(name: string, value: unknown, path: string): string[] {
  const fields = aftershipSdk.models[name]
  if (!fields) return [`${path}: the SDK has no model ${name}`]
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: not an object (${name})`]
  const problems: string[] = []
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const declared = fields[key]
    if (!declared) problems.push(`${path}.${key}: not a field of the SDK's ${name}`)
    // JSON has no undefined: a present field is checked against its declared type.
    else problems.push(...checkType(declared.type, field, `${path}.${key}`))
  }
  for (const [key, field] of Object.entries(fields)) {
    if (!field.optional && (value as Record<string, unknown>)[key] === undefined) problems.push(`${path}.${key}: required by ${name}`)
  }
  return problems
}

/** A union (`Tag | null`) matches when one of its terms does. */
function checkType(type: string, value: unknown, path: string): string[] {
  const terms = type.split('|').map((term) => term.trim())
  const results = terms.map((term) => checkTerm(term, value, path))
  if (results.some((problems) => problems.length === 0)) return []
  return terms.length === 1 ? (results[0] ?? []) : [`${path}: matches none of ${type}`]
}

function checkTerm(term: string, value: unknown, path: string): string[] {
  if (term === 'null') return value === null ? [] : [`${path}: not null`]
  if (term.endsWith('[]')) {
    if (!Array.isArray(value)) return [`${path}: not an array`]
    return value.flatMap((item, index) => checkTerm(term.slice(0, -2), item, `${path}[${index}]`))
  }
  if (term === 'string' || term === 'number' || term === 'boolean') return typeof value === term ? [] : [`${path}: not a ${term}`]
  if (term === '{ [key: string]: any }') {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? [] : [`${path}: not an object`]
  }
  if (term === 'Record<string, string>') {
    const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value)
    return isRecord && Object.values(value).every((item) => typeof item === 'string') ? [] : [`${path}: not an object of strings`]
  }
  const members = aftershipSdk.enums[term]
  if (members)
    return typeof value === 'string' && members.includes(value) ? [] : [`${path}: ${JSON.stringify(value)} is not one of ${term}`]
  return checkModel(term, value, path)
}
