/*
 * How Stripe's API reads and writes on the wire, for the tests' fake
 * (../stripe-fake.ts): form-encoded bodies and query strings with bracketed
 * keys (`metadata[transaction_id]=…`, `types[0]=…`), multipart file
 * uploads, list envelopes with cursor pagination, and error bodies.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue }
export type FormObject = { [key: string]: FormValue }

/** `a[b][0]=x&a[b][1]=y` → `{ a: { b: ['x', 'y'] } }`, as Stripe reads it. */
export function parseForm(encoded: string): FormObject {
  const root: FormObject = {}
  for (const [rawKey, value] of new URLSearchParams(encoded)) {
    const [head, ...rest] = rawKey.split('[')
    const path = [head ?? '', ...rest.map((part) => part.replace(/\]$/, ''))]
    let node: FormObject = root
    path.forEach((key, index) => {
      if (index === path.length - 1) {
        node[key] = value
        return
      }
      const next = node[key]
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {}
      node = node[key] as FormObject
    })
  }
  return arraysFromIndices(root) as FormObject
}

/** Objects whose keys are 0, 1, 2… are arrays. */
function arraysFromIndices(value: FormValue): FormValue {
  if (typeof value !== 'object' || Array.isArray(value)) return value
  const entries = Object.entries(value).map(([key, child]) => [key, arraysFromIndices(child)] as const)
  const indexed = entries.length > 0 && entries.every(([key], index) => key === String(index))
  return indexed ? entries.map(([, child]) => child) : Object.fromEntries(entries)
}

export interface MultipartPart {
  name: string
  fileName: string | undefined
  contentType: string | undefined
  data: Buffer
}

/** `multipart/form-data` as the SDK sends a file upload. */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType)
  const marker = boundary?.[1] ?? boundary?.[2]
  if (!marker) return []
  const delimiter = Buffer.from(`--${marker}`)
  const parts: MultipartPart[] = []
  let start = body.indexOf(delimiter)
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length)
    if (next === -1) break
    const part = body.subarray(start + delimiter.length + 2, next - 2)
    const headerEnd = part.indexOf('\r\n\r\n')
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8')
      const name = /name="([^"]*)"/.exec(headers)?.[1]
      if (name !== undefined) {
        parts.push({
          name,
          fileName: /filename="([^"]*)"/.exec(headers)?.[1],
          contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim(),
          data: Buffer.from(part.subarray(headerEnd + 4)),
        })
      }
    }
    start = next
  }
  return parts
}

/** Stripe's list envelope, newest first, paged by `starting_after` and `limit`. */
export function listPage<T extends Record<string, unknown>>(
  items: T[],
  query: FormObject,
  url: string,
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const limit = Math.min(Math.max(Number(query.limit ?? 10) || 10, 1), 100)
  const after = typeof query.starting_after === 'string' ? items.findIndex((item) => item.id === query.starting_after) + 1 : 0
  const data = items.slice(after, after + limit)
  return { object: 'list', data, has_more: after + limit < items.length, url }
}

export class StripeFakeError extends Error {
  readonly status: number
  readonly body: { error: Record<string, string> }
  constructor(status: number, error: Record<string, string>) {
    super(error.message)
    this.status = status
    this.body = { error }
  }
}

export const invalidRequest = (message: string, fields: { code?: string; param?: string } = {}) =>
  new StripeFakeError(400, { type: 'invalid_request_error', message, ...fields })

export const missing = (kind: string, id: string, param = 'id') =>
  new StripeFakeError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param })

export function text(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}

export function record(value: FormValue | undefined): FormObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
}

export function list(value: FormValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}
