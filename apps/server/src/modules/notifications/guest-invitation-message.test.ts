import { supportedLocales } from '@pactum/domain/locales'
import { describe, expect, it } from 'vitest'
import { renderGuestInvitation } from './guest-invitation-message.ts'

const mailOptions = { supportEmail: 'help@pactum.example' }

const facts = {
  role: 'buyer' as const,
  kind: 'online' as const,
  description: 'A {link} lamp',
  price: { amount: 10_000, currency: 'eur' as const },
  inviterFirstName: 'Sam',
  clientName: null,
  link: 'https://pactum.example/join-guest-transaction/SECRET/online',
  stopLink: 'https://pactum.example/stop-invitations/TOKEN?lang=en_gb',
}

describe('the guest invitation e-mail', () => {
  it('carries the claim link and the link that stops invitations in every language, each in its own words', () => {
    const subjects = new Set<string>()
    for (const locale of supportedLocales) {
      const mail = renderGuestInvitation(locale, facts, mailOptions)
      expect(mail.text, locale).toContain(facts.link)
      expect(mail.text, locale).toContain(facts.stopLink)
      subjects.add(mail.subject)
    }
    expect(subjects.size).toBe(supportedLocales.length)
  })

  it('offers the right role, names the inviter on a line of its own, and never reads placeholders in the description', () => {
    const buyer = renderGuestInvitation('en_gb', facts, mailOptions)
    expect(buyer.subject).toBe('You are invited to buy “A {link} lamp” safely with Pactum')
    expect(buyer.text).toContain('Item: A {link} lamp\nPrice: €100.00\nSeller: Sam')
    expect(buyer.text).toContain(`Accept the invitation: ${facts.link}`)

    const seller = renderGuestInvitation(
      'it_it',
      {
        ...facts,
        role: 'seller',
        kind: 'f2f',
        inviterFirstName: null,
        clientName: 'The Market',
      },
      mailOptions,
    )
    expect(seller.subject).toBe('Sei invitato a vendere “A {link} lamp” in sicurezza con Pactum')
    expect(seller.text).toMatch(/Caparra: 100,00\s€/)
    expect(seller.text).toContain('Inviato tramite: The Market')
    expect(seller.text).not.toContain('Acquirente:')
  })
})
