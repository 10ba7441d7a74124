import fc from 'fast-check'

/**
 * JSON Schema → fast-check arbitraries, for the API fuzz (api-fuzz.ts).
 * Only the keywords the server's OpenAPI document uses for request inputs
 * are understood; any other keyword stops the fuzz with its name, so that a
 * schema feature added later is supported on purpose rather than ignored.
 */
export interface JsonSchema {
  $ref?: string
  type?: JsonType | JsonType[]
  enum?: readonly unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  /** `false` (a strict object): valid values name only `properties`, as they always do here; hostile ones add others. */
  additionalProperties?: false
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  // Documentation only:
  default?: unknown
  example?: unknown
  description?: string
}

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null'

const understood = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'anyOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'default',
  'example',
  'description',
])

export interface SchemaContext {
  /** Looks up a `$ref` (`#/components/schemas/…`) in the document. */
  resolve(ref: string): JsonSchema
  /**
   * Real values by property or parameter name (the caller's transaction
   * ids, live join codes, the fee a quote showed): valid inputs that a
   * generator would almost never guess, so that calls reach the use cases.
   */
  known?: Readonly<Record<string, readonly unknown[]>>
}

/** Values the schema accepts (or real ones, for a name in `known`). */
export function validValue(schema: JsonSchema, context: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  const s = resolved(schema, context)
  const known = name === undefined ? undefined : context.known?.[name]
  const generated = generatedValid(s, context)
  return known?.length ? fc.oneof(fc.constantFrom(...known), generated) : generated
}

/** Values the schema should refuse, or legal ones that tend to break code downstream. */
export function hostileValue(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown> {
  const s = resolved(schema, context)
  const types = typesOf(s)
  const arbitraries: fc.Arbitrary<unknown>[] = [wrongType]
  if (s.anyOf) arbitraries.push(...s.anyOf.map((member) => hostileValue(member, context)))
  if (types.includes('object')) arbitraries.push(hostileObject(s, context))
  if (types.includes('string')) arbitraries.push(hostileString(s))
  if (types.includes('integer') || types.includes('number')) arbitraries.push(hostileNumber(s))
  return fc.oneof(...arbitraries)
}

/** Mostly valid, sometimes hostile: both past validation and at its edges. */
export function fuzzValue(schema: JsonSchema, context: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validValue(schema, context, name) }, { weight: 2, arbitrary: hostileValue(schema, context) })
}

function resolved(schema: JsonSchema, context: SchemaContext): JsonSchema {
  const unknownKeyword = Object.keys(schema).find((key) => !understood.has(key))
  if (unknownKeyword) throw new Error(`json-schema-arbitrary does not understand "${unknownKeyword}" in ${JSON.stringify(schema)}`)
  // A map (`additionalProperties` as a schema) would need values generated for keys of its own.
  if ('additionalProperties' in schema && schema.additionalProperties !== false)
    throw new Error(`json-schema-arbitrary understands only "additionalProperties": false, in ${JSON.stringify(schema)}`)
  return schema.$ref ? resolved(context.resolve(schema.$ref), context) : schema
}

function typesOf(schema: JsonSchema): JsonType[] {
  if (schema.type === undefined) return []
  return Array.isArray(schema.type) ? schema.type : [schema.type]
}

function generatedValid(s: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.enum) return fc.constantFrom(...s.enum)
  if (s.anyOf) return fc.oneof(...s.anyOf.map((member) => validValue(member, context)))
  const types = typesOf(s)
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 })
  if (types.length > 1) return fc.oneof(...types.map((type) => generatedValid({ ...s, type }, context)))
  switch (types[0]!) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return validInteger(s)
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true })
    case 'string':
      return validString(s)
    case 'array':
      return fc.array(validValue(s.items ?? {}, context), { minLength: s.minItems ?? 0, maxLength: s.maxItems ?? 5 })
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([key, property]) => [key, validValue(property, context, key)]),
      )
      return fc.record(shape, { requiredKeys: s.required ?? [] })
    }
  }
}

function validInteger(s: JsonSchema): fc.Arbitrary<number> {
  const min = s.minimum ?? Number.MIN_SAFE_INTEGER
  const max = s.maximum ?? Number.MAX_SAFE_INTEGER
  const anywhere = fc.integer({ min, max })
  // Amounts are allowed the whole safe range; everyday ones are what reach past the fee check.
  const everydayMin = Math.max(min, 0)
  const everydayMax = Math.min(max, 100_000)
  return everydayMin <= everydayMax ? fc.oneof(fc.integer({ min: everydayMin, max: everydayMax }), anywhere) : anywhere
}

function validString(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0
  const maxLength = s.maxLength ?? 1_000_000
  let generated: fc.Arbitrary<string>
  if (s.pattern) generated = fc.stringMatching(new RegExp(s.pattern, 'u'))
  else if (s.format === 'uri') generated = fc.webUrl()
  else if (s.format === 'uuid') generated = fc.uuid()
  else {
    const size = { minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) }
    generated = fc.oneof(fc.string({ ...size, unit: 'grapheme-ascii' }), fc.string({ ...size, unit: 'grapheme' }))
  }
  const withExample = typeof s.example === 'string' ? fc.oneof(fc.constant(s.example), generated) : generated
  // Lengths as zod counts them: UTF-16 code units.
  return withExample.filter((value) => value.length >= minLength && value.length <= maxLength)
}

const wrongType: fc.Arbitrary<unknown> = fc.constantFrom(
  null,
  true,
  false,
  0,
  -1,
  '',
  'text',
  [],
  [1, 'two'],
  {},
  { nested: { deeper: [] } },
)

/** Texts that have broken parsers, databases and templates elsewhere. */
export const awkwardTexts: readonly string[] = [
  '',
  ' ',
  '   ',
  '\t\n',
  '\r\n',
  '\u0000',
  'nul\u0000inside',
  '\u0001',
  '\u0008',
  '\u001b[31mred',
  '\u007f',
  '\u0085',
  '\u2028',
  '\uFEFF',
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  'שלום עולם',
  'مرحبا',
  '\u202Eevil\u202C',
  'e\u0301\u0301\u0301',
  'Z̤͔ͧ̑̓ä͖̭̈̇',
  '𝕏𝔂',
  'ﷺ',
  '\uFFFF',
  '\uFFFE',
  '\uD800',
  'lone\uDC00surrogate',
  "' OR '1'='1",
  "'; DROP TABLE transactions; --",
  '" OR ""="',
  '%',
  '_',
  '\\',
  '\\u0000',
  '%00',
  '%zz',
  '$1',
  ':id',
  '{"$ne":null}',
  '{}',
  '[]',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  'toString',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '0192b3c4-0000-7000-8000-000000000000',
]

function hostileString(s: JsonSchema): fc.Arbitrary<unknown> {
  const maxLength = s.maxLength ?? 10_000
  const tooLong = fc.constantFrom(
    'x'.repeat(maxLength + 1),
    '€'.repeat(maxLength + 1),
    '😀'.repeat(Math.ceil(maxLength / 2) + 1),
    'y'.repeat(100_000),
  )
  const controlCharacterInside = fc
    .tuple(fc.string({ maxLength: 10 }), fc.integer({ min: 0, max: 0x1f }), fc.string({ maxLength: 10 }))
    .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`)
  const arbitraries: fc.Arbitrary<unknown>[] = [
    fc.constantFrom(...awkwardTexts),
    tooLong,
    controlCharacterInside,
    fc.string({ unit: 'binary', maxLength: 50 }),
    // Well-formed ids of nothing.
    fc.uuid(),
  ]
  const words = [...(s.enum ?? []), ...(typeof s.example === 'string' ? [s.example] : [])].filter((word) => typeof word === 'string')
  if (words.length > 0) {
    arbitraries.push(
      fc
        .constantFrom(...words)
        .chain((word) => fc.constantFrom(word.toUpperCase(), ` ${word}`, `${word} `, `${word}\u0000`, `${word},${word}`)),
    )
  }
  return fc.oneof(...arbitraries)
}

function hostileNumber(s: JsonSchema): fc.Arbitrary<unknown> {
  const edges = [
    -1,
    0,
    0.5,
    -0.0001,
    1e-7,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53) - 2,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    ...(s.minimum !== undefined ? [s.minimum - 1, s.minimum - 0.5] : []),
    ...(s.maximum !== undefined ? [s.maximum + 1, s.maximum + 0.5] : []),
  ]
  return fc.oneof(
    fc.constantFrom(...edges),
    fc.constantFrom(
      'NaN',
      'Infinity',
      '-Infinity',
      '1e3',
      '',
      ' 1',
      '1 ',
      '1_000',
      '0x10',
      '0b1',
      '١٢٣',
      '12abc',
      '+5',
      '-0',
      '9'.repeat(400),
    ),
    fc.double(),
    fc.bigInt().map((n) => n.toString()),
  )
}

function hostileObject(s: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown> {
  const properties = Object.entries(s.properties ?? {})
  const valid = validValue(s, context)
  const arbitraries: fc.Arbitrary<unknown>[] = [
    // Fields no schema names, some of them ones a careless merge would let through.
    fc
      .tuple(
        valid,
        fc.dictionary(
          fc.oneof(
            fc.constantFrom('__proto__', 'constructor', 'id', 'status', 'buyer_id', 'seller_id', 'amount_released', 'role'),
            fc.string(),
          ),
          fc.jsonValue({ maxDepth: 2 }),
          { maxKeys: 3 },
        ),
      )
      .map(([object, extra]) => ({ ...(object as object), ...extra })),
    fc.array(valid, { minLength: 1, maxLength: 2 }),
  ]
  if (properties.length > 0) {
    arbitraries.push(
      fc.oneof(
        ...properties.map(([key, property]) =>
          fc.tuple(valid, hostileValue(property, context)).map(([object, bad]) => ({ ...(object as object), [key]: bad })),
        ),
      ),
    )
  }
  if (s.required?.length) {
    arbitraries.push(
      fc.tuple(valid, fc.constantFrom(...s.required)).map(([object, key]) => {
        const copy: Record<string, unknown> = { ...(object as object) }
        delete copy[key]
        return copy
      }),
    )
  }
  return fc.oneof(...arbitraries)
}
