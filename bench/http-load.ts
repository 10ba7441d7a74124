import autocannon from 'autocannon'

/** One autocannon run: throughput, latency percentiles, and what did not answer 2xx. */

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  ok: number
  failed: number
  /** What the failures were, e.g. "502 ×3, errors ×1" (empty when none failed). */
  failures: string
}

export interface LoadOptions {
  url: string
  connections: number
  seconds: number
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /**
   * Requests to pick from at random, one per request: a path (under the
   * url's origin) and the headers that go with it. For reads that many
   * users make of different rows, so that the load does not ask for one
   * row only (as pgbench's select-only picks a random account).
   */
  spread?: readonly { path: string; headers: Record<string, string> }[]
}

export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.spread ? { requests: [{ setupRequest: pickFrom(options.spread) }] } : {}),
  })
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    failures: describeFailures(result),
  }
}

function pickFrom(spread: NonNullable<LoadOptions['spread']>) {
  return (request: autocannon.Request): autocannon.Request => {
    const chosen = spread[Math.floor(Math.random() * spread.length)]!
    return { ...request, path: chosen.path, headers: { ...request.headers, ...chosen.headers } }
  }
}

function describeFailures(result: autocannon.Result): string {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count }]) => `${status} ×${count}`)
  if (result.errors) statuses.push(`connection errors ×${result.errors}`)
  if (result.timeouts) statuses.push(`timeouts ×${result.timeouts}`)
  return statuses.join(', ')
}
