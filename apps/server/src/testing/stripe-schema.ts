import { readFileSync } from 'node:fs'

/**
 * Stripe's published shapes for the API version the `stripe` package pins
 * (fixtures/stripe-shapes.json, written by scripts/extract-stripe-shapes.ts
 * from the package's declarations, which Stripe generates from its OpenAPI
 * description). The fake checks every answer and every event it makes
 * against them, so that the adapter and the fake cannot share a misreading
 * of the API (STYLE.md, "A fake answers to the provider's documents").
 */
type Shape =
  | { kind: 'string' | 'number' | 'boolean' | 'null' | 'any' }
  | { kind: 'enum'; values: Array<string | number | boolean>; open?: true }
  | { kind: 'array'; of: Shape }
  | { kind: 'list'; of: Shape }
  | { kind: 'model'; name: string }
  | { kind: 'union'; of: Shape[] }

interface Model {
  fields: Record<string, { shape: Shape; optional: boolean }>
  anyKey?: Shape
}

interface Fixture {
  stripePackage: string
  openapiVersion: string
  apiVersion: string
  /** An object's `object` value → its model. */
  objects: Record<string, string>
  /** An event type → the model of its `data.object` (null: not one the fixture holds). */
  events: Record<string, string | null>
  /** A call's parameters (`RefundCreateParams`, …) → their names. */
  params: Record<string, string[]>
  models: Record<string, Model>
}

export const stripeShapes = JSON.parse(readFileSync(new URL('./fixtures/stripe-shapes.json', import.meta.url), 'utf8')) as Fixture

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What in a Stripe answer or event does not match the published shapes (unknown fields, missing ones, wrong types or values); empty when it matches. */
export function stripeShapeProblems(value: unknown, path = 'answer'): string[] {
  if (!isObject(value)) return [`${path}: not an object`]
  if (isObject(value.error)) return errorProblems(value, path)
  if (value.object === 'list') return listProblems(value, { kind: 'any' }, path)
  if (value.object === 'event') return eventProblems(value, path)
  // A deleted object is its id, its kind and `deleted: true` (the SDK's `Deleted…` types).
  if (value.deleted === true) return unknownFields(value, ['id', 'object', 'deleted'], path)
  const model = typeof value.object === 'string' ? stripeShapes.objects[value.object] : undefined
  if (!model) return [`${path}: ${JSON.stringify(value.object)} is not an object the fixture holds`]
  return modelProblems(model, value, path)
}

function modelProblems(name: string, value: unknown, path: string): string[] {
  const model = stripeShapes.models[name]
  if (!model) return [`${path}: the fixture has no model ${name}`]
  if (!isObject(value)) return [`${path}: not an object (${name})`]
  const problems: string[] = []
  for (const [key, field] of Object.entries(value)) {
    const declared = model.fields[key]
    if (declared) problems.push(...shapeProblems(declared.shape, field, `${path}.${key}`))
    else if (model.anyKey) problems.push(...shapeProblems(model.anyKey, field, `${path}.${key}`))
    else problems.push(`${path}.${key}: not a field of Stripe's ${name}`)
  }
  for (const [key, field] of Object.entries(model.fields)) {
    if (!field.optional && value[key] === undefined) problems.push(`${path}.${key}: always present in Stripe's ${name}`)
  }
  return problems
}

function shapeProblems(shape: Shape, value: unknown, path: string): string[] {
  switch (shape.kind) {
    case 'any':
      return []
    case 'null':
      return value === null ? [] : [`${path}: not null`]
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === shape.kind ? [] : [`${path}: not a ${shape.kind} (${JSON.stringify(value)})`]
    case 'enum':
      return shape.values.includes(value as string) ? [] : [`${path}: ${JSON.stringify(value)} is not one of ${listed(shape.values)}`]
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item, index) => shapeProblems(shape.of, item, `${path}[${index}]`))
        : [`${path}: not an array`]
    case 'list':
      return isObject(value) ? listProblems(value, shape.of, path) : [`${path}: not a list`]
    case 'model':
      return modelProblems(shape.name, value, path)
    case 'union': {
      const results = shape.of.map((term) => shapeProblems(term, value, path))
      if (results.some((problems) => problems.length === 0)) return []
      // The term of the value's own kind says best what is wrong (an expanded object's own fields, say).
      const own = shape.of.findIndex((term) => kindOfShape(term) === kindOfValue(value))
      return own === -1
        ? [`${path}: ${JSON.stringify(value)} is none of ${shape.of.map(kindOfShape).join(', ')}`]
        : (results[own] as string[])
    }
  }
}

function listed(values: unknown[]): string {
  return values.length > 8 ? `${values.slice(0, 8).join(', ')}, … (${values.length})` : values.join(', ')
}

/** The JSON kind a union's term takes, to match a value with its own term. */
function kindOfShape(shape: Shape): string {
  if (shape.kind === 'enum') return typeof shape.values[0]
  if (shape.kind === 'model' || shape.kind === 'list' || shape.kind === 'any') return 'object'
  return shape.kind
}

function kindOfValue(value: unknown): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'array' : typeof value
}

/** Stripe's list envelope; each item by its own `object` when it has one. */
function listProblems(value: Json, item: Shape, path: string): string[] {
  const problems = unknownFields(value, ['object', 'data', 'has_more', 'url'], path)
  if (value.object !== 'list') problems.push(`${path}.object: not "list"`)
  if (typeof value.has_more !== 'boolean') problems.push(`${path}.has_more: not a boolean`)
  if (typeof value.url !== 'string') problems.push(`${path}.url: not a string`)
  if (!Array.isArray(value.data)) return [...problems, `${path}.data: not an array`]
  value.data.forEach((entry, index) => {
    const at = `${path}.data[${index}]`
    problems.push(...(item.kind === 'any' && isObject(entry) ? stripeShapeProblems(entry, at) : shapeProblems(item, entry, at)))
  })
  return problems
}

/** The envelope by `EventBase`; `data.object` by the model the SDK gives the event's type. */
function eventProblems(value: Json, path: string): string[] {
  const { data, ...envelope } = value
  // Its data and type are checked below, by the type's own model.
  const problems = modelProblems('EventBase', { ...envelope, data: {} }, path).filter(
    (problem) => !problem.startsWith(`${path}.data`) && !problem.startsWith(`${path}.type`),
  )
  if (typeof value.type !== 'string' || !(value.type in stripeShapes.events))
    return [...problems, `${path}.type: ${JSON.stringify(value.type)} is not an event type`]
  if (!isObject(data)) return [...problems, `${path}.data: not an object`]
  problems.push(...unknownFields(data, ['object', 'previous_attributes'], `${path}.data`))
  // An event whose object the SDK types loosely (an external account: bank account or card) is checked by the object's own kind.
  const model = stripeShapes.events[value.type]
  if (model) problems.push(...modelProblems(model, data.object, `${path}.data.object`))
  else problems.push(...stripeShapeProblems(data.object, `${path}.data.object`))
  return problems
}

/**
 * Stripe's error body, `{ error: … }`, by the SDK's `StripeRawError` less what
 * the SDK adds itself (headers, status, request id); its `type` one of the v1
 * API's four (the API reference's *Errors*; the others are v2's and OAuth's).
 */
function errorProblems(value: Json, path: string): string[] {
  const error = value.error as Json
  const problems = [...unknownFields(value, ['error'], path), ...modelProblems('StripeRawError', error, `${path}.error`)]
  const sdkOnly = ['headers', 'statusCode', 'requestId', 'detail', 'exception'].filter((key) => key in error)
  problems.push(...sdkOnly.map((key) => `${path}.error.${key}: added by the SDK, never sent by Stripe`))
  const types = ['api_error', 'card_error', 'idempotency_error', 'invalid_request_error']
  if (!types.includes(error.type as string))
    problems.push(`${path}.error.type: ${JSON.stringify(error.type)} is not one of ${types.join(', ')}`)
  return problems
}

function unknownFields(value: Json, known: string[], path: string): string[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => `${path}.${key}: not a field Stripe sends here`)
}
