import { describe, expect, it } from 'vitest'
import { accountIdForEmail } from './oidc/account-id.ts'
import { authenticate, createAccount } from './oidc/accounts.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { type WrittenMail, writtenMails } from '../../testing/written-mails.ts'
import { testPasswordCost } from '../../testing/test-password-cost.ts'

/** Issue 30: changing the sign-in address from the Account page, proved by a link to the new address. */
const testApps = appPerTest()

const password = 'correct horse 42'

async function start() {
  const testApp = await testApps.open()
  const { db } = testApp.database
  await createAccount(db, { email: 'anna@example.com', password, firstName: 'Anna', lastName: 'Nowak', locale: null }, testPasswordCost)
  const token = await testApp.tokenFor('anna@example.com', { firstName: 'Anna' })
  const change = async (body: object) => {
    const response = await testApp!.app.inject({
      method: 'POST',
      url: '/api/v1/me/email',
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    })
    return { status: response.statusCode, body: response.json() }
  }
  const open = async (link: string) => {
    const { pathname, search } = new URL(link)
    return testApp!.app.inject({ method: 'POST', url: pathname + search })
  }
  return { db, change, open, dataDir: testApp.dataDir }
}

const linkIn = (text: string) => text.match(/https?:\/\/\S+/)![0]
// Two mails written in the same millisecond come back in either order: each is found by its recipient.
const mailTo = (mails: WrittenMail[], to: string) => mails.find((mail) => mail.to === to)!

describe('POST /me/email', () => {
  it('changes the address only when the link sent to the new one is opened, and tells the old one', async () => {
    const { db, change, open, dataDir } = await start()
    expect(await change({ new_email: 'Anna.New@Example.com', current_password: password })).toEqual({
      status: 202,
      body: { email: 'anna.new@example.com' },
    })

    const mails = await writtenMails(dataDir)
    expect(mails).toHaveLength(2)
    const confirmation = mailTo(mails, 'anna.new@example.com')
    const notice = mailTo(mails, 'anna@example.com')
    expect(confirmation.subject).toBe('Confirm your new e-mail address for Pactum')
    expect(notice.subject).toBe('Your Pactum address is about to change')
    expect(notice.text).toContain('anna.new@example.com')
    expect(notice.text).not.toMatch(/https?:\/\//)
    // Nothing changes before the link is opened.
    expect(await authenticate(db, 'anna@example.com', password, testPasswordCost)).toBe(accountIdForEmail('anna@example.com'))
    expect(await authenticate(db, 'anna.new@example.com', password, testPasswordCost)).toBeNull()

    const opened = await open(linkIn(confirmation.text))
    expect(opened.statusCode).toBe(200)
    expect(opened.body).toContain('<h1>E-mail address confirmed</h1>')
    const account = await db.selectFrom('accounts').select(['id', 'email', 'email_verified_at']).executeTakeFirstOrThrow()
    expect(account).toMatchObject({
      id: accountIdForEmail('anna@example.com'),
      email: 'anna.new@example.com',
      email_verified_at: expect.any(Date),
    })
    // The same account signs in with the new address only.
    expect(await authenticate(db, 'anna.new@example.com', password, testPasswordCost)).toBe(account.id)
    expect(await authenticate(db, 'anna@example.com', password, testPasswordCost)).toBeNull()
    // Opening it again reads the same and changes nothing more.
    expect((await open(linkIn(confirmation.text))).body).toContain('<h1>E-mail address confirmed</h1>')
  })

  it('refuses a wrong current password and e-mails nobody', async () => {
    const { change, dataDir } = await start()
    expect(await change({ new_email: 'other@example.com', current_password: 'wrong horse 42' })).toMatchObject({
      status: 403,
      body: { code: 'incorrect_password' },
    })
    expect(await writtenMails(dataDir)).toEqual([])
  })

  it('refuses the address the account has already, naming the field', async () => {
    const { change } = await start()
    expect(await change({ new_email: 'ANNA@example.com', current_password: password })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: { field: 'body.new_email' } },
    })
  })

  it('answers the same for an address another account has, whose link then says it is taken', async () => {
    const { db, change, open, dataDir } = await start()
    expect((await change({ new_email: 'bo@example.com', current_password: password })).status).toBe(202)
    await createAccount(
      db,
      { email: 'bo@example.com', password: 'another horse 7', firstName: 'Bo', lastName: 'Berg', locale: null },
      testPasswordCost,
    )
    const opened = await open(linkIn(mailTo(await writtenMails(dataDir), 'bo@example.com').text))
    expect(opened.statusCode).toBe(409)
    expect(opened.body).toContain('<h1>Address already in use</h1>')
    const anna = await db
      .selectFrom('accounts')
      .select('email')
      .where('id', '=', accountIdForEmail('anna@example.com'))
      .executeTakeFirstOrThrow()
    expect(anna.email).toBe('anna@example.com')
  })

  it('has nothing to change for someone without an embedded sign-in account', async () => {
    const testApp = await testApps.open()
    const token = await testApp.tokenFor('minted@example.com')
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/me/email',
      headers: { authorization: `Bearer ${token}` },
      payload: { new_email: 'new@example.com', current_password: password },
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: 'email_change_unavailable' })
  })
})
