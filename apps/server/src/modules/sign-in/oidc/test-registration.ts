import type { LightMyRequestResponse } from 'fastify'
import { writtenMails } from '../../../testing/written-mails.ts'
import type { TestBrowser } from './test-browser.ts'

/**
 * For tests: registration as a person does it now (pending-registration.ts):
 * the form, then the link in the e-mail, then its button. Returns the
 * button's answer: a redirect that ends the sign-in when the browser still
 * holds the interaction the registration began in.
 */
export const completeRegistrationLink = /https?:\/\/\S+\/complete-registration\/[A-Za-z0-9_-]{43}\?lang=[a-z_]+/

/** The link in the newest registration e-mail to `email` (DATA_DIR/mail). */
export async function registrationLinkFor(dataDir: string, email: string): Promise<string> {
  const mails = await writtenMails(dataDir)
  const mail = mails.filter((each) => each.to === email.trim().toLowerCase() && completeRegistrationLink.test(each.text)).at(-1)
  if (!mail) throw new Error(`no registration link e-mailed to ${email}`)
  return mail.text.match(completeRegistrationLink)![0]
}

/** Opens the e-mailed link in `browser` and presses its button. */
export async function openRegistrationLink(browser: TestBrowser, link: string): Promise<LightMyRequestResponse> {
  const page = await browser.request({ url: link })
  const action = /<form method="post" action="([^"]+)">/.exec(page.body)?.[1]?.replace(/&amp;/g, '&')
  if (!action) throw new Error(`no button on the registration link's page: ${page.statusCode} ${page.body}`)
  return browser.request({ method: 'POST', url: action })
}

/** Posts the registration form on `pagePath`, then follows the e-mailed link in the same browser. */
export async function registerThroughLink(
  browser: TestBrowser,
  dataDir: string,
  pagePath: string,
  form: { firstName: string; lastName: string; email: string; password: string },
): Promise<LightMyRequestResponse> {
  const posted = await browser.request({ method: 'POST', url: `${pagePath}/register`, form })
  if (posted.statusCode !== 200) throw new Error(`registration form answered ${posted.statusCode}: ${posted.body}`)
  return openRegistrationLink(browser, await registrationLinkFor(dataDir, form.email))
}
