import { createServer, type Server } from 'node:http'

/**
 * A stand-in for an OpenTelemetry collector: a plain HTTP server that takes
 * OTLP/HTTP JSON (`POST /v1/traces`, what @opentelemetry/exporter-trace-otlp-http
 * sends) and keeps every span it is sent, flattened with its attributes.
 * Anything else is refused, so a wrong path or protocol shows as no spans.
 */

export interface ReceivedSpan {
  name: string
  traceId: string
  spanId: string
  parentSpanId: string | undefined
  /** OTLP's SpanKind number: 2 is SERVER, 1 INTERNAL. */
  kind: number
  /** OTLP's status code: 2 is ERROR. */
  statusCode: number
  attributes: Record<string, string | number | boolean>
  /** The resource's attributes (`service.name`). */
  resource: Record<string, string | number | boolean>
}

interface OtlpValue {
  stringValue?: string
  intValue?: number | string
  boolValue?: boolean
  doubleValue?: number
}
type OtlpAttributes = Array<{ key: string; value: OtlpValue }> | undefined

interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttributes }
    scopeSpans?: Array<{
      spans?: Array<{
        name: string
        traceId: string
        spanId: string
        parentSpanId?: string
        kind?: number
        status?: { code?: number }
        attributes?: OtlpAttributes
      }>
    }>
  }>
}

function flatten(attributes: OtlpAttributes): Record<string, string | number | boolean> {
  const flat: Record<string, string | number | boolean> = {}
  for (const { key, value } of attributes ?? []) {
    flat[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? ''))
  }
  return flat
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[]
  /** Requests it refused (wrong method, path or content type), as `METHOD path content-type`. */
  readonly refused: string[]
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to: the exporter appends /v1/traces. */
  readonly endpoint: string
  readonly #server: Server

  private constructor(server: Server, endpoint: string, spans: ReceivedSpan[], refused: string[]) {
    this.#server = server
    this.endpoint = endpoint
    this.spans = spans
    this.refused = refused
  }

  static async start(): Promise<OtlpReceiver> {
    const spans: ReceivedSpan[] = []
    const refused: string[] = []
    const server = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const type = request.headers['content-type'] ?? ''
        if (request.method !== 'POST' || request.url !== '/v1/traces' || !type.startsWith('application/json')) {
          refused.push(`${request.method} ${request.url} ${type}`)
          response.writeHead(404).end()
          return
        }
        spans.push(...received(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces))
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    if (!address || typeof address === 'string') throw new Error('the receiver has no port')
    return new OtlpReceiver(server, `http://127.0.0.1:${address.port}`, spans, refused)
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#server.close((error) => (error ? reject(error) : resolve())))
  }
}

function received(body: OtlpTraces): ReceivedSpan[] {
  const spans: ReceivedSpan[] = []
  for (const resourceSpans of body.resourceSpans ?? []) {
    const resource = flatten(resourceSpans.resource?.attributes)
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          name: span.name,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          kind: span.kind ?? 0,
          statusCode: span.status?.code ?? 0,
          attributes: flatten(span.attributes),
          resource,
        })
      }
    }
  }
  return spans
}
