/*
 * How the API fuzz writes values into a URL: path parameters into the
 * path (or a raw, hostile segment as it is), the rest as a query string.
 */

export class RawSegment {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** Path parameters into the path; a value that is not an object of them (hostile) fills every one. */
export function fillPath(path: string, values: unknown): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (values instanceof RawSegment) return values.text
    const value = isRecord(values) ? values[name] : values
    return encodeURIComponent(asText(value))
  })
}

export function queryString(values: unknown): string {
  if (values === undefined) return ''
  if (!isRecord(values)) return encodeURIComponent(asText(values))
  const pairs: string[] = []
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue
    if (value === null) pairs.push(encodeURIComponent(name))
    else if (Array.isArray(value)) for (const item of value) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(asText(item))}`)
    else pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(asText(value))}`)
  }
  return pairs.join('&')
}

/** As a client would put a value into a URL: text as it is, anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  return typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : JSON.stringify(value)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// `encodeURIComponent` refuses lone surrogates; a client's library would send U+FFFD.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const encodeURIComponent = (text: string): string => globalThis.encodeURIComponent(text.replace(loneSurrogate, '\uFFFD'))
