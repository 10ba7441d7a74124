import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { e2eServerEnv } from './support/server-env.ts'

/**
 * Browser tests drive Debian's Chromium (never a downloaded browser) against
 * the real server, built web app and embedded sign-in, on a port and data
 * folder of their own.
 */
const port = Number(process.env.E2E_PORT ?? 3310)
/**
 * E2E_BASE_URL runs the tests against a server that is already running
 * (`npm run test:cluster`: several processes behind nginx) instead of
 * starting one; E2E_DATA_DIR must then be that server's DATA_DIR, where the
 * tests read the e-mails it wrote.
 */
const externalBaseUrl = process.env.E2E_BASE_URL?.replace(/\/+$/, '')
if (externalBaseUrl && !process.env.E2E_DATA_DIR) throw new Error("E2E_BASE_URL needs E2E_DATA_DIR: the server's DATA_DIR")
const baseURL = externalBaseUrl ?? `http://localhost:${port}`
// Playwright evaluates this file in the runner and again in every worker: the
// folder is made once and handed down through the environment, so tests can
// read what the server wrote there (the e-mails in DATA_DIR/mail).
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'pactum-e2e-'))
const dataDir = process.env.E2E_DATA_DIR

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: true,
  // Two tests at a time on two cores. Three was faster on an earlier machine
  // (9.9 min with two, 7.1 with three), but on the 2026-11-27 machine three
  // Chromiums kept the load average at 14–16 and a third of the tests ran past
  // their timeout, while the same tests passed one or two at a time
  // (docs/performance.md, "The CI run's time"). E2E_WORKERS overrides it.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  // Generous: two tests share two cores, and a sale waits on several timers.
  // 240 s since 2026-11-27: on that machine a whole face-to-face sale (two
  // sign-ups, deposit, remainder, handover) took 2.1 min with nothing wrong.
  timeout: 360_000,
  // 20 s a look: with two browsers on two cores a new person's first page took 6 s to ask for its
  // profile and the country dialog came at 9.5 s (2026-11-28 trace), past the 10 s this was.
  expect: { timeout: 20_000 },
  reporter: [['list'], ['html', { outputFolder: 'artifacts/report', open: 'never' }]],
  use: {
    baseURL,
    // CI records a trace when it runs a failed test again, as Playwright
    // advises: recording one for every test (its screencast, and a snapshot
    // of the page at every step) cost every test's time to keep the few
    // that failed. Locally every failed test keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  ...(externalBaseUrl
    ? {}
    : {
        webServer: {
          command: 'node ../apps/server/src/main.ts',
          url: `${baseURL}/api/v1/health`,
          reuseExistingServer: false,
          timeout: 60_000,
          env: { PORT: String(port), ...e2eServerEnv({ publicUrl: baseURL, dataDir }) },
        },
      }),
})
