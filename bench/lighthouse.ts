/**
 * Lighthouse (mobile, simulated throttling, performance only) on a signed-in
 * My transactions page (issue 13: performance ≥ 95, LCP ≤ 2.0 s). Starts the
 * built server on a free port with a fresh DATA_DIR, launches Debian's
 * Chromium (never a downloaded browser), signs a new person up through the
 * embedded sign-in with Playwright over the DevTools protocol, then hands the
 * same browser to Lighthouse with storage kept, so the session (in
 * localStorage) survives. Prints the figures; docs/performance.md keeps them.
 *
 *   npm run build && npm run bench:lighthouse
 *
 * LIGHTHOUSE_REPORT=<file> also writes the whole report (JSON) there, for the
 * LCP element, the request chains and the treemap behind the figures.
 *
 * LANTERN_DEBUG=1 also prints the simulated LCP graph, node by node: when each
 * request and main-thread task starts and ends under the simulated slow 4G
 * and CPU. The LCP estimate is where the last of them ends
 * (docs/decisions/081-first-requests-before-the-apps-script.md, "Fourth pass: where Lighthouse's LCP estimate comes from").
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js'
import { chromium } from '@playwright/test'

const root = path.resolve(import.meta.dirname, '..')
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const targets = { performance: 95, lcpMs: 2000 }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function waitForHealth(baseUrl: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with ${server.exitCode}`)
    const healthy = await fetch(`${baseUrl}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    )
    if (healthy) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error('The server did not become healthy within 60 s')
}

/** Registers a new person through the embedded sign-in and gets past the first-visit dialogs. */
async function signUp(debuggingPort: number, baseUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debuggingPort}`)
  const context = browser.contexts()[0] ?? (await browser.newContext())
  const page = await context.newPage()
  await page.goto(`${baseUrl}/register`)
  await page.getByLabel('First name').fill('Lena')
  await page.getByLabel('Last name').fill('Lighthouse')
  await page.getByLabel('E-mail').fill(`lena.${Date.now()}@example.com`)
  await page.getByLabel('Password').fill('correct horse 42')
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL(/\/transactions$/)
  const dialog = page.getByTestId('country-dialog')
  await dialog.getByRole('combobox', { name: /Country/ }).fill('Ireland')
  await page.getByRole('option', { name: 'Ireland', exact: true }).click()
  await dialog.getByRole('checkbox', { name: /I agree to the terms of service/ }).check()
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await dialog.waitFor({ state: 'hidden' })
  const tour = page.getByTestId('guided-tour')
  await tour.getByRole('button', { name: 'Skip tour' }).click()
  await tour.waitFor({ state: 'hidden' })
  // Lighthouse keeps storage (the session) and so would keep the HTTP cache: a first load downloads everything.
  const devtools = await context.newCDPSession(page)
  await devtools.send('Network.clearBrowserCache')
  await page.close()
  // Leaves Chromium running for Lighthouse; only this connection ends.
  await browser.close()
}

const port = await freePort()
const baseUrl = `http://localhost:${port}`
const dataDir = mkdtempSync(path.join(tmpdir(), 'pactum-lighthouse-'))
const server = spawn(process.execPath, [path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  env: { ...process.env, PORT: String(port), PUBLIC_URL: baseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
})
let chrome: chromeLauncher.LaunchedChrome | undefined
try {
  await waitForHealth(baseUrl, server)
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  await signUp(chrome.port, baseUrl)
  const result = await lighthouse(
    `${baseUrl}/transactions`,
    { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
    undefined,
  )
  if (!result) throw new Error('Lighthouse returned no result')
  const { lhr } = result
  if (process.env.LIGHTHOUSE_REPORT) writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(lhr))
  // A failed trace (NO_NAVSTART and the like, seen on a loaded machine) leaves every figure NaN: say so instead.
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure the page (${lhr.runtimeError.code}): run it again`)
  if (!lhr.finalDisplayedUrl.endsWith('/transactions'))
    throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl}, not the signed-in page`)
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
  const requests =
    (
      lhr.audits['network-requests']?.details as
        { items?: Array<{ resourceType?: string; transferSize?: number; url?: string }> } | undefined
    )?.items ?? []
  const scripts = requests.filter((request) => request.resourceType === 'Script')
  const scriptBytes = scripts.reduce((sum, request) => sum + (request.transferSize ?? 0), 0)
  const score = Math.round((lhr.categories.performance?.score ?? 0) * 100)
  const lcp = audit('largest-contentful-paint')
  const rows: Array<[string, string, string]> = [
    ['performance (mobile)', String(score), `≥ ${targets.performance}: ${score >= targets.performance ? 'met' : 'not met'}`],
    ['LCP', `${(lcp / 1000).toFixed(2)} s`, `≤ ${targets.lcpMs / 1000} s: ${lcp <= targets.lcpMs ? 'met' : 'not met'}`],
    ['FCP', `${(audit('first-contentful-paint') / 1000).toFixed(2)} s`, ''],
    ['TBT', `${Math.round(audit('total-blocking-time'))} ms`, ''],
    ['CLS', audit('cumulative-layout-shift').toFixed(3), ''],
    ['JS transferred', `${(scriptBytes / 1000).toFixed(1)} kB in ${scripts.length} files`, ''],
  ]
  if (process.env.LANTERN_DEBUG) printLcpGraph(baseUrl)
  process.stdout.write(`Lighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor}, ${lhr.finalDisplayedUrl}\n`)
  for (const [name, value, target] of rows) process.stdout.write(`  ${name.padEnd(22)} ${value.padEnd(24)} ${target}\n`)
} finally {
  await chrome?.kill()
  server.kill()
  rmSync(dataDir, { recursive: true, force: true })
}

interface SimulatedNode {
  type: string
  startTime: number
  duration?: number
  request?: { url: string }
  /** A main-thread task's trace events (Lantern's CPU node). */
  childEvents?: Array<{ name: string; dur?: number; args?: { data?: { url?: string } } }>
}

/** What a main-thread task spent its time on: its three longest trace events. */
function mainThreadWork(node: SimulatedNode): string {
  const events = [...(node.childEvents ?? [])].sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 3)
  if (events.length === 0) return ''
  return ` (${events.map((event) => `${event.name} ${((event.dur ?? 0) / 1000).toFixed(1)} ms${event.args?.data?.url ? ` ${event.args.data.url.split('/').pop()}` : ''}`).join(', ')})`
}

/** The simulations Lighthouse kept (LANTERN_DEBUG set), the pessimistic LCP one printed: start, end, what. */
function printLcpGraph(baseUrl: string): void {
  const simulations = (
    Lantern as unknown as {
      Simulation: { Simulator: { allNodeTimings: Map<string, Map<SimulatedNode, { startTime: number; endTime: number }>> } }
    }
  ).Simulation.Simulator.allNodeTimings
  const timings = simulations.get('pessimisticLargestContentfulPaint')
  if (!timings) return
  process.stdout.write('Simulated LCP graph (pessimistic), ms:\n')
  const rows = [...timings.entries()].sort(([, a], [, b]) => a.startTime - b.startTime)
  for (const [node, timing] of rows) {
    const what =
      node.type === 'network'
        ? (node.request?.url ?? '').replace(baseUrl, '')
        : `main thread, ${Math.round((node.duration ?? 0) / 1000)} ms observed${mainThreadWork(node)}`
    process.stdout.write(
      `  ${String(Math.round(timing.startTime)).padStart(5)} → ${String(Math.round(timing.endTime)).padStart(5)}  ${what}\n`,
    )
  }
}
