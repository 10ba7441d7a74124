import { afterEach, describe, expect, it } from 'vitest'
import type { MailMessage, Mailer } from '../../../adapters/mailer/port.ts'
import type { Database } from '../../../db/database.ts'
import { createTestDatabase } from '../../../testing/test-database.ts'
import { createAccount, findAccountProfile } from './accounts.ts'
import { confirmEmail, confirmationLinkDays, linkState, sendConfirmationLink } from './email-verification.ts'
import { testPasswordCost } from '../../../testing/test-password-cost.ts'

let database: Database | undefined
afterEach(async () => {
  await database?.close()
  database = undefined
})

const issuer = 'https://pactum.example/oidc'
const t0 = new Date('2026-11-23T09:00:00Z')
const day = 86_400_000

async function setup() {
  database = await createTestDatabase()
  const { db } = database
  const created = await createAccount(
    db,
    {
      email: 'Ola@Example.com',
      password: 'correct horse 42',
      firstName: 'Ola',
      lastName: 'Nowak',
      locale: 'pl_pl',
    },
    testPasswordCost,
  )
  if (!created.created) throw new Error('account not created')
  const sent: MailMessage[] = []
  const mailer: Mailer = {
    send: async (message) => {
      sent.push(message)
      return { id: `mail-${sent.length}` }
    },
  }
  const account = { id: created.accountId, email: created.email, firstName: 'Ola' }
  const sendLink = async (now = t0) => {
    await sendConfirmationLink({ db, mailer, now, issuer, supportEmail: 'help@pactum.example' }, account, 'pl_pl')
    const token = sent.at(-1)?.text.match(/verify-email\/([A-Za-z0-9_-]+)\?lang=pl_pl/)?.[1]
    if (!token) throw new Error('no link in the mail')
    return token
  }
  const verified = async () => (await findAccountProfile(db, account.id))?.emailVerified
  return { db, sent, account, sendLink, verified }
}

describe('e-mail confirmation links', () => {
  it('are written in the language given, to the normalised address, and keep only a hash', async () => {
    const { db, sent, sendLink } = await setup()
    const token = await sendLink()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ to: 'ola@example.com', subject: 'Potwierdź swój adres e-mail w Pactum' })
    expect(sent[0]!.text).toContain(`w ciągu ${confirmationLinkDays} dni`)
    expect(sent[0]!.text).toContain(`${issuer}/verify-email/${token}?lang=pl_pl`)
    const stored = await db.selectFrom('email_verification_tokens').selectAll().execute()
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(token)
  })

  it('confirm once, and a used link reads as confirmed', async () => {
    const { db, sendLink, verified } = await setup()
    const token = await sendLink()
    expect(await linkState(db, token, t0)).toBe('valid')
    expect(await verified()).toBe(false)
    const [first, second] = await Promise.all([confirmEmail(db, token, t0), confirmEmail(db, token, t0)])
    expect([first, second]).toEqual(['confirmed', 'confirmed'])
    expect(await verified()).toBe(true)
    const used = await db.selectFrom('email_verification_tokens').select('used_at').execute()
    expect(used).toEqual([{ used_at: t0 }])
  })

  it('expire after the stated days and then confirm nothing', async () => {
    const { db, sendLink, verified } = await setup()
    const token = await sendLink()
    const justBefore = new Date(t0.getTime() + confirmationLinkDays * day - 1000)
    const after = new Date(t0.getTime() + confirmationLinkDays * day)
    expect(await linkState(db, token, justBefore)).toBe('valid')
    expect(await linkState(db, token, after)).toBe('expired')
    expect(await confirmEmail(db, token, after)).toBe('expired')
    expect(await verified()).toBe(false)
    // A new link works where the old one does not.
    expect(await confirmEmail(db, await sendLink(after), after)).toBe('confirmed')
  })

  it('confirm nothing for an address the account no longer has', async () => {
    const { db, account, sendLink, verified } = await setup()
    const token = await sendLink()
    await db.updateTable('accounts').set({ email: 'ola.new@example.com' }).where('id', '=', account.id).execute()
    expect(await confirmEmail(db, token, t0)).toBe('invalid')
    expect(await verified()).toBe(false)
  })

  it.each(['', 'short', 'x'.repeat(43), `${'A'.repeat(42)}!`, "'; drop table accounts; --"])(
    'find nothing for the token %j',
    async (token) => {
      const { db, sendLink, verified } = await setup()
      await sendLink()
      expect(await linkState(db, token, t0)).toBe('invalid')
      expect(await confirmEmail(db, token, t0)).toBe('invalid')
      expect(await verified()).toBe(false)
    },
  )
})
