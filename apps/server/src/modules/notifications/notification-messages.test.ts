import { supportedLocales } from '@pactum/domain/locales'
import { describe, expect, it } from 'vitest'
import { type MessageKey, messages, notifyTemplates, parties, renderNotification } from './notification-messages.ts'

const mailOptions = { supportEmail: 'help@pactum.example' }

const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort()

const facts = {
  description: 'A blue bicycle',
  price: { amount: 123_456, currency: 'eur' as const },
  otherPartyFirstName: 'Bea',
  link: 'https://pactum.example/transactions/0195f3c2-0000-7000-8000-000000000001',
}

describe('notification catalogue', () => {
  const english = messages.en_gb

  it.each(supportedLocales)('%s has a subject and a body for every template and party, with the same placeholders as English', (locale) => {
    const table = messages[locale]
    expect(Object.keys(table).sort()).toEqual(Object.keys(english).sort())
    for (const template of notifyTemplates) {
      for (const party of parties) {
        for (const part of ['subject', 'body'] as const) {
          const key = `${template}.${party}.${part}` as MessageKey
          expect(table[key]?.trim(), `${locale} ${key}`).toBeTruthy()
        }
        // Every subject names the transaction, so the e-mails of two sales can be told apart.
        expect(placeholders(table[`${template}.${party}.subject` as MessageKey]), `${locale} ${template}.${party}.subject`).toEqual([
          '{description}',
        ])
      }
    }
    for (const [key, text] of Object.entries(table)) {
      expect(text.trim(), `${locale} ${key}`).not.toBe('')
      expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(english[key as MessageKey]))
    }
  })

  it('is translated, not copied from English', () => {
    for (const locale of supportedLocales.filter((candidate) => candidate !== 'en_gb')) {
      const copied = Object.entries(messages[locale]).filter(([key, text]) => text === english[key as MessageKey])
      expect(copied, locale).toEqual([])
    }
  })
})

describe('renderNotification', () => {
  it('writes the subject, what happened, the details and the link in the language asked for', () => {
    const { subject, text } = renderNotification('pl_pl', 'paid', 'seller', facts, mailOptions)
    expect(subject).toBe('Otrzymano płatność za „A blue bicycle”: wyślij przedmiot')
    expect(text).toContain('Kupujący zapłacił, a Pactum przechowuje pieniądze.')
    expect(text).toContain('Przedmiot: A blue bicycle\n')
    expect(text).toContain(`Cena: ${new Intl.NumberFormat('pl-PL', { style: 'currency', currency: 'EUR' }).format(1234.56)}\n`)
    expect(text).toContain('Kupujący: Bea\n')
    expect(text).toContain(`Otwórz transakcję: ${facts.link}`)
  })

  it.each(supportedLocales)('%s tells the buyer how much of a payment went back, and why, for every reason', (locale) => {
    for (const reason of ['cancelled', 'superseded', 'remainder_skipped', 'wrong_amount', 'not_due'] as const) {
      const { text } = renderNotification(
        locale,
        'payment_returned',
        'buyer',
        {
          ...facts,
          returned: { amount: 10_340, currency: 'eur', reason },
        },
        mailOptions,
      )
      const amount = new Intl.NumberFormat(locale.replace('_', '-'), { style: 'currency', currency: 'EUR' }).format(103.4)
      expect(text).toContain(
        `${messages[locale]['details.returned']}: ${amount}\n${messages[locale]['details.returnReason']}: ${messages[locale][`returnReason.${reason}`]}\n`,
      )
    }
    // Other e-mails have no such lines.
    expect(renderNotification(locale, 'paid', 'buyer', facts, mailOptions).text).not.toContain(messages[locale]['details.returnReason'])
  })

  it('formats the price in the currency’s own decimals and the reader’s conventions', () => {
    // Yen has no minor unit: 5000 is ¥5,000 (ICU writes JP¥ under en-GB).
    expect(renderNotification('en_gb', 'paid', 'buyer', { ...facts, price: { amount: 5000, currency: 'jpy' } }, mailOptions).text).toMatch(
      /Price: (JP)?¥5,000\n/,
    )
    expect(renderNotification('en_gb', 'paid', 'buyer', facts, mailOptions).text).toContain('Price: €1,234.56\n')
    expect(renderNotification('fi_fi', 'paid', 'buyer', facts, mailOptions).text).toMatch(/Hinta: 1\s234,56\s€\n/)
  })

  it('names the other party on a line of its own, and leaves the line out when there is no name', () => {
    expect(renderNotification('en_gb', 'tracked', 'buyer', { ...facts, otherPartyFirstName: 'Sam' }, mailOptions).text).toContain(
      '\nSeller: Sam\n',
    )
    const nameless = renderNotification('en_gb', 'tracked', 'buyer', { ...facts, otherPartyFirstName: '  ' }, mailOptions).text
    expect(nameless).not.toContain('Seller:')
    expect(nameless).not.toContain('Buyer:')
  })

  it('keeps a long or multi-line description to one short line in the subject, and never reads placeholders in it', () => {
    const description = `Line one\nline two {link} ${'x'.repeat(200)}`
    const { subject, text } = renderNotification('en_gb', 'delivered', 'seller', { ...facts, description }, mailOptions)
    expect(subject).not.toMatch(/[\r\n]/)
    expect(subject).toMatch(/^“Line one line two \{link\} x+…” has arrived$/)
    expect(Array.from(subject).length).toBeLessThan(80)
    expect(text).toContain('Item: Line one line two {link} xxx')
  })
})
