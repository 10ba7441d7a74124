import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../testing/app-per-test.ts'
import { openWithSaleCast } from '../../testing/sale-cast.ts'
import { joinedSale, payByCard } from '../../testing/sale-steps.ts'

const testApps = appPerTest()
const preferences = '/api/v1/me/notification_preferences'
const oneClick = { 'content-type': 'application/x-www-form-urlencoded' }

/** An e-mail the file mailer wrote: its header block unfolded (long headers are folded, RFC 5322 §2.2.3), subject and text part. */
interface WrittenMail {
  headers: string
  subject: string
  text: string
  html: string
}

/** The e-mails to an address, oldest first. */
async function mailsTo(dataDir: string, email: string): Promise<WrittenMail[]> {
  const dir = path.join(dataDir, 'mail')
  const files = (await readdir(dir)).sort()
  const mails: WrittenMail[] = []
  for (const file of files) {
    const content = await readFile(path.join(dir, file), 'utf8')
    const headers = `\r\n${content.slice(0, content.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ')}\r\n`
    if (!headers.includes(`\r\nTo: ${email}\r\n`)) continue
    const parsed = await simpleParser(content)
    mails.push({ headers, subject: parsed.subject ?? '', text: parsed.text ?? '', html: parsed.html || '' })
  }
  return mails
}

async function sellerWithMails() {
  const cast = await openWithSaleCast(testApps)
  const { id } = await joinedSale(cast.call)
  await payByCard(cast.call, id)
  await cast.app.services.jobs.runDue()
  const mails = await mailsTo(cast.testApp.dataDir, 'seller@example.com')
  const joined = mails.find((mail) => mail.subject.includes('joined'))!
  const paid = mails.find((mail) => mail.subject.startsWith('Payment received'))!
  expect(joined, mails.map((mail) => mail.subject).join(' | ')).toBeDefined()
  expect(paid, mails.map((mail) => mail.subject).join(' | ')).toBeDefined()
  const link = /http:\/\/localhost:3999(\/email-opt-out\/([^?\s]+)\?lang=en_gb)/.exec(joined.text)
  expect(link, joined.text).not.toBeNull()
  return { ...cast, joined, paid, pathAndQuery: link![1]!, token: link![2]! }
}

describe('the one-click link that turns a kind of e-mail off', () => {
  it('is at the foot of optional e-mails with List-Unsubscribe headers, and of no money e-mail', async () => {
    const { joined, paid, pathAndQuery } = await sellerWithMails()
    expect(joined.text).toContain(`Turn off e-mails about the progress of your sales: http://localhost:3999${pathAndQuery}`)
    expect(joined.headers).toContain(`\r\nList-Unsubscribe: <http://localhost:3999${pathAndQuery}>\r\n`)
    expect(joined.headers).toContain('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n')
    // The HTML part has the same line, its link written out (mail-html.ts).
    expect(joined.html).toContain(`href="http://localhost:3999${pathAndQuery}"`)
    expect(paid.text).not.toContain('email-opt-out')
    expect(paid.html).not.toContain('email-opt-out')
    expect(paid.headers).not.toContain('List-Unsubscribe')
  })

  it('asks on GET, turns the category off on a POST without sign-in, and answers 404 to a token it did not sign', async () => {
    const { app, call, pathAndQuery, token } = await sellerWithMails()
    const allOn = { messages: true, reminders: true, updates: true }

    // A mail scanner opening the link turns nothing off.
    const page = await app.inject({ method: 'GET', url: pathAndQuery.replace('lang=en_gb', 'lang=pl_pl') })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<html lang="pl-PL">')
    expect(page.body).toContain(`<form method="post" action="/email-opt-out/${token}?lang=pl_pl">`)
    expect((await call('seller', 'GET', preferences)).body).toEqual(allOn)

    // Forged: another person's id, another category, a changed signature. Each 404, nothing changes.
    const [userId, category, mac] = token.split('.') as [string, string, string]
    const forged = [
      `00000000-0000-4000-8000-000000000000.${category}.${mac}`,
      `${userId}.messages.${mac}`,
      `${userId}.${category}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      'not-a-token',
    ]
    for (const bad of forged) {
      const refused = await app.inject({
        method: 'POST',
        url: `/email-opt-out/${bad}`,
        headers: oneClick,
        payload: 'List-Unsubscribe=One-Click',
      })
      expect(refused.statusCode, bad).toBe(404)
      expect(refused.body).toContain('This link is not valid')
      expect((await app.inject({ method: 'GET', url: `/email-opt-out/${bad}` })).statusCode).toBe(404)
    }
    expect((await call('seller', 'GET', preferences)).body).toEqual(allOn)

    // The mail client's one click (RFC 8058), with nobody signed in.
    const done = await app.inject({ method: 'POST', url: pathAndQuery, headers: oneClick, payload: 'List-Unsubscribe=One-Click' })
    expect(done.statusCode).toBe(200)
    expect(done.body).toContain('E-mails turned off')
    expect(done.body).toContain('href="/profile/help/account"')
    expect((await call('seller', 'GET', preferences)).body).toEqual({ ...allOn, updates: false })
    // Again: still off, still fine. The buyer's choices are their own.
    expect(
      (await app.inject({ method: 'POST', url: pathAndQuery, headers: oneClick, payload: 'List-Unsubscribe=One-Click' })).statusCode,
    ).toBe(200)
    expect((await call('buyer', 'GET', preferences)).body).toEqual(allOn)
  })

  it('is rate-limited per client address, like every guessable secret', async () => {
    const { app } = await openWithSaleCast(testApps)
    const guess = (n: number) =>
      app.inject({
        method: 'POST',
        url: `/email-opt-out/00000000-0000-4000-8000-000000000000.updates.${String(n).padStart(43, 'a')}`,
        headers: oneClick,
        payload: 'List-Unsubscribe=One-Click',
      })
    for (let n = 0; n < 20; n++) expect((await guess(n)).statusCode).toBe(404)
    expect((await guess(20)).statusCode).toBe(429)
  })
})
