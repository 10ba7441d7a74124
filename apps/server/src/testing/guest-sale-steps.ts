import { expect } from 'vitest'
import { type SaleCall } from './sale-steps.ts'
import { writtenMails } from './written-mails.ts'

/*
 * Guest transactions for the integration tests: created with an invitation
 * by e-mail, and the claim link read back from the mail folder as the
 * invitee would.
 */

/** The secret and kind in the newest invitation mailed to `email`. */
export async function invitationLink(dataDir: string, email: string) {
  const mail = (await writtenMails(dataDir)).filter((written) => written.to === email.toLowerCase()).at(-1)
  if (!mail) throw new Error(`no mail to ${email}`)
  const match = /\/(join-guest-transaction(?:-as-seller)?)\/([A-Za-z0-9_-]+)\/(online|f2f)/.exec(mail.text)
  if (!match) throw new Error(`no claim link in the mail to ${email}:\n${mail.text}`)
  return {
    mail,
    role: match[1] === 'join-guest-transaction' ? ('buyer' as const) : ('seller' as const),
    secret: match[2]!,
    type: match[3] as 'online' | 'f2f',
  }
}

/**
 * The seller (or `creator`) offers a sale to someone known only by e-mail;
 * the fee is the quoted one.
 */
export async function createGuestSale(
  call: SaleCall,
  dataDir: string,
  options: { email?: string; kind?: 'online' | 'f2f'; creator?: 'seller' | 'buyer'; language?: string } = {},
) {
  const kind = options.kind ?? 'online'
  const creator = options.creator ?? 'seller'
  const email = options.email ?? 'guest@example.com'
  const prefix = kind === 'f2f' ? '/api/v1/p2p' : '/api/v1'
  const quote = await call(creator, 'GET', `${prefix}/charge?price=10000&currency=eur&payment_method=card`)
  expect(quote.status).toBe(200)
  const price =
    kind === 'f2f'
      ? { deposit_price: 10_000, deposit_charge: quote.body.charge }
      : { price: 10_000, charge: quote.body.charge, payment_method: 'card' }
  const created = await call(creator, 'POST', `${prefix}/me/transactions`, {
    role: creator,
    currency: 'eur',
    description: 'A green lamp',
    ...price,
    charge_calculator_version: quote.body.charge_calculator_version,
    counterparty_email: email,
    ...(options.language ? { invitation_language: options.language } : {}),
  })
  expect(created.status).toBe(201)
  const link = await invitationLink(dataDir, email.toLowerCase())
  return { id: created.body.id as string, created: created.body, ...link }
}
