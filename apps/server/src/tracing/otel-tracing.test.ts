import { InMemorySpanExporter } from '@opentelemetry/sdk-trace'
import { describe, expect, it } from 'vitest'
import { startOtelTracing } from './otel-tracing.ts'

describe('OpenTelemetry tracing (issue 37)', () => {
  it('makes a span opened inside another its child, also across awaits, and keeps two concurrent spans apart', async () => {
    const exporter = new InMemorySpanExporter()
    const tracing = startOtelTracing({ serviceName: 'pactum-test', exporter })
    const inner = (name: string) => tracing.span(name, {}, () => new Promise((resolve) => setTimeout(resolve, 5)))
    await Promise.all([
      tracing.span('job a', { 'pactum.job.queue': 'a' }, () => inner('call a')),
      tracing.span('job b', {}, () => inner('call b')),
    ])
    const spans = new Map(exporter.getFinishedSpans().map((span) => [span.name, span]))
    await tracing.shutdown()
    expect([...spans.keys()].sort()).toEqual(['call a', 'call b', 'job a', 'job b'])
    for (const job of ['a', 'b']) {
      const parent = spans.get(`job ${job}`)!
      const child = spans.get(`call ${job}`)!
      expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId)
      expect(child.spanContext().traceId).toBe(parent.spanContext().traceId)
      expect(parent.parentSpanContext).toBeUndefined()
    }
    expect(spans.get('job a')!.attributes).toEqual({ 'pactum.job.queue': 'a' })
    expect(spans.get('job a')!.resource.attributes['service.name']).toBe('pactum-test')
  })

  it('marks a span failed when its work throws, and passes the error on', async () => {
    const exporter = new InMemorySpanExporter()
    const tracing = startOtelTracing({ serviceName: 'pactum', exporter })
    await expect(
      tracing.span('outbox refund', {}, async () => {
        throw new Error('card_declined')
      }),
    ).rejects.toThrow('card_declined')
    const [span] = exporter.getFinishedSpans()
    expect(span?.status).toEqual({ code: 2, message: 'card_declined' })
    expect(span?.events.map((event) => event.name)).toEqual(['exception'])
  })

  it('starts a span the caller ends as a root of its own, even inside another span', async () => {
    const exporter = new InMemorySpanExporter()
    const tracing = startOtelTracing({ serviceName: 'pactum', exporter })
    await tracing.span('job', {}, async () => {
      const request = tracing.start('GET /api/v1/health', { 'http.route': '/api/v1/health' }, { kind: 'server' })
      request.setAttributes({ 'http.response.status_code': 200 })
      request.end()
    })
    const request = exporter.getFinishedSpans().find((span) => span.name === 'GET /api/v1/health')!
    expect(request.parentSpanContext).toBeUndefined()
    expect(request.kind).toBe(1) // SpanKind.SERVER
    expect(request.attributes).toEqual({ 'http.route': '/api/v1/health', 'http.response.status_code': 200 })
  })
})
