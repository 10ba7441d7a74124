import { AsyncLocalStorage } from 'node:async_hooks'
import { type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace'
import type { OpenSpan, Tracing } from './tracing.ts'

/**
 * The OpenTelemetry side of tracing.ts, imported (dynamically) only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. Spans go to the collector over
 * OTLP/HTTP with JSON bodies (`<endpoint>/v1/traces`), batched.
 *
 * Nothing is registered globally (no global tracer provider, context
 * manager or propagator): each app has its own provider, and parent spans
 * are carried by an AsyncLocalStorage of our own, so two apps in one
 * process (the tests) never mix their spans.
 */
export function startOtelTracing(options: {
  serviceName: string
  /** The collector's traces URL (config.ts appends /v1/traces to the endpoint). */
  tracesUrl?: string
  /** Instead of the OTLP exporter, spans to this one, sent at once (the tests' InMemorySpanExporter). */
  exporter?: SpanExporter
  /**
   * Told when spans could not be sent (the collector down or refusing), at
   * most once a minute: the SDK itself says nothing unless a global
   * diagnostic logger is installed, which we do not do.
   */
  onExportError?: (error: Error, failedExports: number) => void
}): Tracing {
  const processor = options.exporter
    ? new SimpleSpanProcessor({ exporter: options.exporter })
    : new BatchSpanProcessor({
        exporter: reportingFailures(
          new OTLPTraceExporter(options.tracesUrl ? { url: options.tracesUrl } : {}),
          options.onExportError ?? (() => {}),
        ),
      })
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [processor],
  })
  const tracer = provider.getTracer('pactum')
  const parents = new AsyncLocalStorage<Context>()
  const open = (span: Span): OpenSpan => ({
    setAttributes: (attributes) => void span.setAttributes(attributes),
    fail: (error) => failSpan(span, error),
    end: () => span.end(),
  })
  return {
    span: async (name, attributes, work) => {
      const parent = parents.getStore() ?? ROOT_CONTEXT
      const span = tracer.startSpan(name, { attributes }, parent)
      try {
        return await parents.run(trace.setSpan(parent, span), work)
      } catch (error) {
        failSpan(span, error)
        throw error
      } finally {
        span.end()
      }
    },
    start: (name, attributes, startOptions) =>
      open(
        tracer.startSpan(
          name,
          { attributes, kind: startOptions?.kind === 'server' ? SpanKind.SERVER : SpanKind.INTERNAL },
          // A request is a trace of its own, whatever async context its hook runs in.
          ROOT_CONTEXT,
        ),
      ),
    shutdown: () => provider.shutdown(),
  }
}

type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0]

/** The exporter, with its failures counted and reported at most once a minute. */
function reportingFailures(exporter: SpanExporter, report: (error: Error, failedExports: number) => void): SpanExporter {
  let failed = 0
  let reportedAt = -Infinity
  return {
    export: (spans, done) =>
      exporter.export(spans, (result: ExportResult) => {
        // ExportResultCode.SUCCESS is 0 (@opentelemetry/core, not imported for one number).
        if (result.code !== 0) {
          failed++
          if (performance.now() - reportedAt >= 60_000) {
            reportedAt = performance.now()
            report(result.error ?? new Error('the collector refused the spans'), failed)
            failed = 0
          }
        }
        done(result)
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  }
}

function failSpan(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error)
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) })
}
