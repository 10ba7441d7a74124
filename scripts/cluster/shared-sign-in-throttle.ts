import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Browser, chromium, type Page } from '@playwright/test'
import { loadConfig } from '../../apps/server/src/config.ts'
import { finishRegistrationFromMail, type Person, submitRegistration } from '../../e2e/support/people.ts'
import { translator } from '../../apps/server/src/modules/sign-in/oidc/translations.ts'
import { type Check, processesTried } from './settled-checks.ts'

/**
 * The embedded sign-in's password throttle (modules/sign-in/oidc/sign-in-throttle.ts) across
 * the processes: a person registers, then someone on the sign-in page tries
 * five wrong passwords for that e-mail from one client address and then the right one, which must be
 * refused. nginx spreads the form posts over the processes, so only the count
 * in the database refuses the sixth; one per process would let fifteen through.
 */

// The browser tests' Chromium and flags (e2e/playwright.config.ts): Debian's, never a downloaded one.
const launchOptions = {
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
}

// The cluster runs on the default limits: five failures per (address, client address) in 15 minutes.
const { maxFailuresPerAddress: maxFailures, windowSeconds } = loadConfig({}).signIn

// English pages, whatever the machine's language: the message looked for is the en_gb one.
const contextOptions = { locale: 'en-GB' }

export async function sharedSignInThrottle(baseUrl: string, accessLog: string, dataDir: string): Promise<Check> {
  const name = 'the sign-in throttle is shared by the processes'
  process.env.E2E_DATA_DIR = dataDir
  const person: Person = {
    firstName: 'Tess',
    lastName: 'Throttle',
    email: `cluster-throttle.${Date.now()}@example.com`,
    password: 'correct horse 42',
  }
  const browser = await chromium.launch(launchOptions)
  try {
    await register(browser, baseUrl, person)
    const page = await (await browser.newContext({ ...contextOptions, baseURL: baseUrl })).newPage()
    await page.goto('/transactions')
    await page.getByLabel('Password').waitFor()
    const uid = /\/interaction\/([^/?#]+)/.exec(page.url())?.[1]
    if (!uid) throw new Error(`/transactions led to ${page.url()}, not to the sign-in page`)

    const statuses: number[] = []
    for (let attempt = 0; attempt < maxFailures; attempt++)
      statuses.push(await signInAttempt(page, person.email, `wrong password ${attempt + 1}`))
    statuses.push(await signInAttempt(page, person.email, person.password))
    const throttledMessage = translator('en_gb')('error.throttled', { minutes: windowSeconds / 60 })
    const refused = (await page.locator('body').innerText()).includes(throttledMessage)
    // Signed in, the app would stay on /transactions; signed out, it sends the visitor to sign in.
    await page.goto('/transactions')
    const askedToSignIn = await page.waitForURL(/\/oidc\/interaction\//, { timeout: 15_000 }).then(
      () => true,
      () => false,
    )

    await sleep(1500) // nginx flushes its access log every second
    const posts = (await readFile(accessLog, 'utf8')).split('\n').filter((line) => line.includes(`"POST /oidc/interaction/${uid}/login `))
    const processes = new Set(posts.flatMap((line) => processesTried(line).slice(-1)))
    const wrong = statuses.slice(0, maxFailures)
    return {
      name,
      ok: wrong.every((status) => status === 401) && statuses.at(-1) === 429 && refused && askedToSignIn && processes.size > 1,
      detail:
        `${maxFailures} wrong passwords answered ${[...new Set(wrong)].join('/')}, then the right one ${statuses.at(-1)} ` +
        `${refused ? 'with' : 'without'} the throttle message, ${askedToSignIn ? 'not signed in' : 'signed in'}; ` +
        `${posts.length} form posts served by ${processes.size} processes`,
    }
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error) }
  } finally {
    await browser.close()
  }
}

/**
 * Through /register (the app hands over to the embedded provider's form) and the e-mailed link that
 * finishes it (since issue 30 the account exists only once its address is proved), in a context of its
 * own. The browser tests' steps, which read the link from the servers' DATA_DIR (E2E_DATA_DIR).
 */
async function register(browser: Browser, baseUrl: string, person: Person): Promise<void> {
  const context = await browser.newContext({ ...contextOptions, baseURL: baseUrl })
  const page = await context.newPage()
  await page.goto('/register')
  await submitRegistration(page, person)
  await finishRegistrationFromMail(page, person)
  await page.waitForURL(/\/transactions$/)
  await context.close()
}

/** One form post; its status once the page it answered with has loaded. */
async function signInAttempt(page: Page, email: string, password: string): Promise<number> {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  const answered = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/login'),
  )
  const loaded = page.waitForEvent('load')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  const [response] = await Promise.all([answered, loaded])
  return response.status()
}
