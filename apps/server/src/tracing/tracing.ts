/**
 * Traces (issue 37), as the rest of the server sees them: a span around a
 * piece of work, with a few attributes. Off by default (`noTracing`: nothing
 * recorded, no OpenTelemetry code loaded); with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, otel-tracing.ts is imported and sends the spans over OTLP/HTTP
 * (docs/operations.md, Traces). The interface is ours so that the default
 * start never pays for the SDK's modules.
 */

export type SpanAttributes = Record<string, string | number | boolean>

export interface OpenSpan {
  setAttributes(attributes: SpanAttributes): void
  /** Marks the span failed (an exception event and an error status). */
  fail(error: unknown): void
  end(): void
}

export interface Tracing {
  /**
   * Runs `work` in a span named `name`, ended when it settles (failed when
   * it throws). Spans opened inside `work`, however deep in its calls,
   * become its children.
   */
  span<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>
  /**
   * A span the caller ends, for work that begins and ends in different
   * callbacks (an HTTP request: one hook opens it, another ends it). It has
   * no children.
   */
  start(name: string, attributes: SpanAttributes, options?: { kind?: 'server' | 'internal' }): OpenSpan
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>
}

const noSpan: OpenSpan = { setAttributes: () => {}, fail: () => {}, end: () => {} }

export const noTracing: Tracing = {
  span: (_name, _attributes, work) => work(),
  start: () => noSpan,
  shutdown: async () => {},
}
