import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { describe, expect, it } from 'vitest'
import { freePort } from '../testing/crash-server.ts'
import { startTracing } from './start-tracing.ts'
import { noTracing } from './tracing.ts'

const serverSource = path.resolve(import.meta.dirname, '..')

/** A logger keeping its warnings' messages (the only level tracing uses). */
function warningsLog(): { log: FastifyBaseLogger; warnings: string[] } {
  const warnings: string[] = []
  return { log: { warn: (_details: object, message: string) => void warnings.push(message) } as unknown as FastifyBaseLogger, warnings }
}

describe('tracing off by default (issue 37)', () => {
  it('loads nothing without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await startTracing(undefined, warningsLog().log)).toBe(noTracing)
  })

  it('says so in the log when the collector is down, and still shuts down', async () => {
    const { log, warnings } = warningsLog()
    // A port nothing listens on: every post is refused.
    const tracing = await startTracing({ tracesUrl: `http://127.0.0.1:${await freePort()}/v1/traces`, serviceName: 'pactum' }, log)
    await tracing.span('job outbox-send', {}, async () => {})
    await tracing.shutdown()
    expect(warnings).toEqual(expect.arrayContaining(['spans could not be sent to the OpenTelemetry collector']))
  })

  it('keeps the OpenTelemetry SDK behind the one dynamic import, so a start without traces never loads it', async () => {
    const files = (await readdir(serverSource, { recursive: true })).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    const importers: Record<string, string[]> = { sdk: [], otelTracing: [] }
    for (const file of files) {
      const text = await readFile(path.join(serverSource, file), 'utf8')
      if (/from '@opentelemetry\//.test(text)) importers.sdk!.push(file)
      if (/otel-tracing\.ts'/.test(text)) importers.otelTracing!.push(file)
    }
    expect(importers).toEqual({ sdk: [path.join('tracing', 'otel-tracing.ts')], otelTracing: [path.join('tracing', 'start-tracing.ts')] })
    const starter = await readFile(path.join(serverSource, 'tracing', 'start-tracing.ts'), 'utf8')
    expect(starter).toMatch(/await import\('\.\/otel-tracing\.ts'\)/)
    expect(starter).not.toMatch(/^import .*otel-tracing/m)
  })
})
