import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { adminEmail, adminSlots } from './support/people.ts'

/**
 * Browser tests drive Debian's Chromium (never a downloaded browser) against
 * the real server, built web app and embedded sign-in, on a port and data
 * folder of their own.
 */
const port = Number(process.env.E2E_PORT ?? 3310)
const baseURL = `http://localhost:${port}`
// Playwright evaluates this file in the runner and again in every worker: the
// folder is made once and handed down through the environment, so tests can
// read what the server wrote there (the e-mails in DATA_DIR/mail).
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'pactum-e2e-'))
const dataDir = process.env.E2E_DATA_DIR
/**
 * The people the e2e server treats as admins (support/people.ts, adminPerson):
 * one per admin test and attempt (a retry registers a new one; the data
 * folder lives for the whole run).
 */
const adminEmails = adminSlots.flatMap((slot) => [0, 1, 2].map((attempt) => adminEmail(slot, attempt))).join(',')

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: true,
  // Three tests at a time on two cores: most of a browser test is waiting on the
  // sandbox's timers and page loads, and every test signs up people of its own
  // (measured: 9.9 min with two, 7.1 min with three on a busy machine, no flakes).
  // E2E_WORKERS overrides it.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: process.env.CI ? 1 : 0,
  // Generous: two tests share two cores, and a sale waits on several timers.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'artifacts/report', open: 'never' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
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
  webServer: {
    command: 'node ../apps/server/src/main.ts',
    url: `${baseURL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // A shortened complaint window so that a browser test sees the release.
      COMPLAINT_PERIOD_SECONDS: '8',
      SANDBOX_TRACKING_IN_TRANSIT_SECONDS: '2',
      SANDBOX_TRACKING_DELIVERED_SECONDS: '3600',
      // Identity checks and the payout schedule in seconds, so that a browser test sees a payout arrive.
      SANDBOX_DOCUMENT_CHECK_SECONDS: '2',
      SANDBOX_PAYOUT_DELAY_SECONDS: '3',
      SANDBOX_PAYOUT_ARRIVAL_SECONDS: '4',
      // The admin console's test signs this address up; the server gives it the admin role.
      ADMIN_EMAILS: adminEmails,
    },
  },
})
