import { execFileSync } from 'node:child_process'
import { loadavg } from 'node:os'

/** The benchmark's closing table, as Markdown so that it pastes into docs/performance.md. */

export interface Row {
  figure: string
  pactum: string
  reference: string
  /** Pactum's figure divided by the reference's, where the issue asks for one. */
  ratio?: number
  target?: { text: string; met: boolean }
  note?: string
}

export function printTable(rows: Row[], run: { connections: number; scale: 'quick' | 'full'; seconds: number }): void {
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    } catch {
      return 'unknown'
    }
  })()
  const lines = [
    '',
    `${new Date().toISOString().slice(0, 10)}, at ${commit}, ${run.scale} scale (${run.seconds} s per measurement), load average ${loadAverage()}`,
    '',
    '| figure | Pactum | beside | ratio | target | |',
    '|---|---|---|---|---|---|',
    ...rows
      .map((row) =>
        [
          row.figure,
          row.pactum,
          row.reference,
          row.ratio === undefined ? '' : row.ratio.toFixed(2),
          row.target?.text ?? '',
          [row.target ? (row.target.met ? 'met' : 'NOT MET') : '', row.note ?? ''].filter(Boolean).join('; '),
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
    '',
  ]
  process.stdout.write(lines.join('\n'))
}

function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')
}
