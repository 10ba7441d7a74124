import { spawn } from 'node:child_process'

/**
 * Runs the npm scripts named on the command line at the same time and fails
 * when any of them does: `npm test` checks lint and types this way. ESLint
 * and each tsc use one core; one after the other they left the second core
 * of a two-core CI machine idle for most of a minute. Each script's output
 * is kept and printed whole when it ends, so the two do not interleave.
 *
 *   node scripts/side-by-side.ts lint typecheck
 */
const scripts = process.argv.slice(2)
if (scripts.length === 0) throw new Error('side-by-side.ts: name the npm scripts to run')

const results = await Promise.all(scripts.map((script) => run(script)))
for (const { script, code, output } of results) {
  process.stdout.write(output)
  if (code !== 0) console.error(`npm run ${script} failed (exit ${code})`)
}
process.exit(results.every(({ code }) => code === 0) ? 0 : 1)

function run(script: string): Promise<{ script: string; code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }))
  })
}
