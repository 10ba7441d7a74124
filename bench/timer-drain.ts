import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

/**
 * The 10,000-timer drain of issue 10, as `npm run bench:jobs` measures it
 * (job-drain.ts, PostgreSQL only, no e-mail part), run as a child so that
 * its database and workers are gone before anything else is measured.
 */
export async function timerDrainSeconds(timers: number): Promise<{ seconds: number; released: number; line: string }> {
  const script = path.join(import.meta.dirname, 'job-drain.ts')
  const args = [script, '--engine', 'postgres', '--timers', String(timers), '--emails', '0']
  // job-drain exits 1 when its own target is not met; its line is still the figure.
  const stdout = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 }).then(
    (result) => result.stdout,
    (error: { stdout?: string; message: string }) => {
      if (!error.stdout) throw new Error(`the timer drain failed: ${error.message}`)
      return error.stdout
    },
  )
  const line = stdout.split('\n').find((text) => text.includes('due auto-releases')) ?? ''
  const match = /([\d.]+) s .*?(\d+)\/\d+ done/.exec(line)
  if (!match) throw new Error(`the timer drain printed no figure:\n${stdout}`)
  return { seconds: Number(match[1]), released: Number(match[2]), line: line.trim() }
}
