/**
 * What `npm run cli -- doctor` finds, per outside service: whether the
 * sandbox twin or the real provider is configured, and each check made on
 * it (keys' form and mode, secrets present, the service answering).
 */
/** `embedded`: the built-in default of a piece that has no sandbox twin (the database, the sign-in). */
export type ProviderMode = 'sandbox' | 'embedded' | 'real'

export interface Check {
  /** What was checked, e.g. "STRIPE_SECRET_KEY" or "the API answers". */
  name: string
  outcome: 'ok' | 'warning' | 'failed'
  /** What was found, for the operator; never a secret. */
  detail: string
}

export interface ProviderReport {
  /** The service, as docs/providers.md names it: payments, bank accounts, tracking, e-mail, documents, … */
  service: string
  mode: ProviderMode
  /** Which implementation runs, e.g. "Stripe (test mode)" or "the sandbox (no money moves)". */
  summary: string
  checks: Check[]
}

export const ok = (name: string, detail: string): Check => ({ name, outcome: 'ok', detail })
export const warning = (name: string, detail: string): Check => ({ name, outcome: 'warning', detail })
export const failed = (name: string, detail: string): Check => ({ name, outcome: 'failed', detail })

/** Runs a check that calls a service: its failure becomes a failed check naming the reason, not a crash. */
export async function answered(name: string, call: () => Promise<string>): Promise<Check> {
  try {
    return ok(name, await call())
  } catch (error) {
    return failed(name, error instanceof Error ? error.message : String(error))
  }
}

const marks = { ok: '✓', warning: '!', failed: '✗' } as const

export function formatReport(reports: ProviderReport[]): string {
  const width = Math.max(...reports.map((report) => report.service.length))
  const lines = ['Pactum doctor: which providers are real, which are sandbox, and whether each answers', '']
  for (const report of reports) {
    lines.push(`${report.service.padEnd(width)}  ${(report.mode === 'real' ? 'REAL' : report.mode).padEnd(8)}  ${report.summary}`)
    for (const check of report.checks) lines.push(`${' '.repeat(width)}    ${marks[check.outcome]} ${check.name}: ${check.detail}`)
  }
  const failures = reports.flatMap((report) => report.checks).filter((check) => check.outcome === 'failed').length
  const warnings = reports.flatMap((report) => report.checks).filter((check) => check.outcome === 'warning').length
  lines.push(
    '',
    failures === 0
      ? `All checks passed${warnings ? ` (${warnings} warning${warnings > 1 ? 's' : ''})` : ''}.`
      : `${failures} check${failures > 1 ? 's' : ''} FAILED.`,
  )
  return `${lines.join('\n')}\n`
}

export function hasFailures(reports: ProviderReport[]): boolean {
  return reports.some((report) => report.checks.some((check) => check.outcome === 'failed'))
}
