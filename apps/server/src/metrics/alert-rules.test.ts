import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

/*
 * The alert rules an operator loads into Prometheus (deploy/prometheus,
 * issue 37), checked by Prometheus's own tool: `promtool check rules` reads
 * them as Prometheus would, and `promtool test rules` runs alerts.test.yml's
 * made-up series through them (each alert fires when it should, and not
 * before). promtool comes with Debian's `prometheus` package, which
 * .ci/run installs as it does Chromium.
 */

const run = promisify(execFile)
const rulesDir = path.resolve(import.meta.dirname, '../../../../deploy/prometheus')

describe('the alert rules (deploy/prometheus/alerts.yml)', () => {
  it('are valid Prometheus rules and pass their unit tests', async () => {
    const checked = await run('promtool', ['check', 'rules', 'alerts.yml'], { cwd: rulesDir })
    expect(checked.stdout).toContain('SUCCESS: 5 rules found')
    const tested = await run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: rulesDir })
    expect(tested.stdout).toContain('SUCCESS')
  })

  it('name only metrics the server exports', async () => {
    const { readFile } = await import('node:fs/promises')
    const rules = await readFile(path.join(rulesDir, 'alerts.yml'), 'utf8')
    const source = await readFile(path.resolve(import.meta.dirname, 'metrics.ts'), 'utf8')
    const named = [...new Set([...rules.matchAll(/\b(pactum_[a-z_]+?)(?:_count|_bucket|_sum)?\b/g)].map((match) => match[1]!))]
    const exported = [...source.matchAll(/name: '(pactum_[a-z_]+)'/g)].map((match) => match[1]!)
    expect(named.length).toBeGreaterThan(0)
    expect(named.filter((name) => !exported.includes(name))).toEqual([])
  })
})
