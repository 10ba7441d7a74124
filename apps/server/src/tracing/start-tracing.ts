import type { FastifyBaseLogger } from 'fastify'
import type { TracingConfig } from '../config.ts'
import { noTracing, type Tracing } from './tracing.ts'

/**
 * Tracing as configured: nothing (no module loaded) without
 * OTEL_EXPORTER_OTLP_ENDPOINT, else the OpenTelemetry SDK, imported here and
 * only here, so a start without traces does not load or pay for it.
 */
export async function startTracing(config: TracingConfig | undefined, log: FastifyBaseLogger): Promise<Tracing> {
  if (!config) return noTracing
  const { startOtelTracing } = await import('./otel-tracing.ts')
  const tracing = startOtelTracing({
    serviceName: config.serviceName,
    tracesUrl: config.tracesUrl,
    onExportError: (error, failedExports) =>
      log.warn({ err: error, failedExports, tracesUrl: config.tracesUrl }, 'spans could not be sent to the OpenTelemetry collector'),
  })
  return {
    ...tracing,
    // A collector that is down must not fail a shutdown: the spans are lost, the drain goes on.
    shutdown: () =>
      tracing
        .shutdown()
        .catch((error: unknown) => log.warn({ err: error }, 'the last spans could not be sent to the OpenTelemetry collector')),
  }
}
