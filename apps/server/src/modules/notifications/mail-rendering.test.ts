import { supportedLocales, toLanguageTag } from '@pactum/domain/locales'
import { describe, expect, it } from 'vitest'
import type { MailMessage } from '../../adapters/mailer/port.ts'
import { mailStructure } from '../../testing/mail-structure.ts'
import { sendSignInChangeNotice } from '../sign-in/oidc/sign-in-change-notice.ts'
import { renderGuestInvitation } from './guest-invitation-message.ts'
import type { RenderedMail } from './mail-content.ts'
import { messages, notifyTemplates, parties, renderNotification } from './notification-messages.ts'

/*
 * Every e-mail, in every language, written twice from one content: the
 * text and the HTML carry the same words, the same one action with the
 * same link, the recipient's name, the footer, and no placeholder left.
 */

const supportEmail = 'help@pactum.example'
const link = 'https://pactum.example/transactions/0195f3c2-0000-7000-8000-000000000001'
const facts = {
  description: 'A blue bicycle',
  price: { amount: 123_456, currency: 'eur' as const },
  otherPartyFirstName: 'Bea',
  recipientFirstName: 'Zoë',
  link,
}

/** What every rendered e-mail must be, whichever it is. */
function expectWellFormed(mail: RenderedMail, locale: (typeof supportedLocales)[number], action: { label: string; url: string } | null) {
  const html = mailStructure(mail.html)
  expect(mail.text.trim()).not.toBe('')
  expect(html.lang).toBe(toLanguageTag(locale))
  expect(html.colorSchemeMeta).toBe(true)
  expect(html.darkModeRules).toBe(true)
  expect(mail.html).toContain(`<title>`)
  if (action) {
    // One button, the same link as the text's action line, printed beneath it too.
    expect(html.buttons).toEqual([{ href: action.url, label: action.label }])
    expect(mail.text).toContain(`${action.label}: ${action.url}`)
    expect(html.visibleText).toContain(action.url)
  } else {
    expect(html.buttons).toEqual([])
  }
  // The support address, as text and as a mailto link.
  expect(mail.text).toContain(supportEmail)
  expect(html.links).toContain(`mailto:${supportEmail}`)
  // No placeholder left unfilled, in either form.
  expect(mail.text).not.toMatch(/\{\w+\}/)
  expect(html.visibleText).not.toMatch(/\{\w+\}/)
  // Every paragraph of the text is in the HTML (the same content, rendered twice).
  for (const block of mail.text.split('\n\n')) {
    for (const line of block.split('\n')) {
      const [label, ...rest] = line.split(': ')
      for (const piece of rest.length > 0 && label!.length < 40 ? [label!, rest.join(': ')] : [line]) {
        expect(html.visibleText.replace(/\s+/g, ' '), `${locale}: ${piece}`).toContain(piece.replace(/\s+/g, ' ').trim())
      }
    }
  }
}

describe('every state-change e-mail', () => {
  it.each(supportedLocales)('%s: each template to each party has text and HTML with the action, the name and the footer', (locale) => {
    const table = messages[locale]
    for (const template of notifyTemplates) {
      for (const party of parties) {
        const mail = renderNotification(locale, template, party, facts, { supportEmail })
        expectWellFormed(mail, locale, { label: table['mail.action.openTransaction'], url: link })
        expect(mail.text.startsWith(table.greetingNamed.replace('{name}', 'Zoë'))).toBe(true)
        expect(mailStructure(mail.html).visibleText).toContain(table.greetingNamed.replace('{name}', 'Zoë'))
        expect(mail.text).toContain(table[`${template}.${party}.body`])
        expect(mail.text).toContain(table.footer)
      }
    }
  })

  it('says the receipt is attached only when it is', () => {
    for (const locale of supportedLocales) {
      const line = messages[locale]['mail.receiptAttached']
      const attached = renderNotification(locale, 'funds_released', 'seller', facts, { supportEmail, receiptAttached: true })
      expect(attached.text).toContain(line)
      expect(mailStructure(attached.html).visibleText).toContain(line)
      expect(renderNotification(locale, 'funds_released', 'seller', facts, { supportEmail }).text).not.toContain(line)
    }
  })

  it('escapes what users wrote: a description, names and a quoted message never become markup', () => {
    const hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)> "quoted" \'single\''
    const mail = renderNotification(
      'en_gb',
      'message_received',
      'buyer',
      { ...facts, description: hostile, otherPartyFirstName: '<b>Bea</b>', recipientFirstName: '"Zoë"<i>', quote: `line one\n${hostile}` },
      { supportEmail },
    )
    expect(mail.html).not.toMatch(/<script|<img|<b>Bea|<i>|onerror=alert\(1\)>/)
    expect(mail.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;')
    expect(mail.html).toContain('&#34;quoted&#34; &#39;single&#39;')
    const visible = mailStructure(mail.html).visibleText
    expect(visible).toContain('<script>alert("x")</script> & <img src=x onerror=alert(1)>')
    expect(visible).toContain('Hello "Zoë"<i>,')
    expect(visible).toContain('<b>Bea</b>')
    // The text alternative keeps them as written: it is not HTML.
    expect(mail.text).toContain('Hello "Zoë"<i>,')
  })

  it('changes colours only in dark mode: every override sits in the dark-scheme block or under Outlook.com’s dark marker', () => {
    const { html } = renderNotification('en_gb', 'paid', 'buyer', facts, { supportEmail })
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!
    const outsideMedia = css.replace(/@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}/g, '')
    for (const rule of outsideMedia.match(/[^{}]+\{[^{}]*!important[^{}]*\}/g) ?? []) {
      const selectors = rule
        .slice(0, rule.indexOf('{'))
        .split(',')
        .map((selector) => selector.trim())
      for (const selector of selectors) expect(selector, rule).toMatch(/^(\[data-ogsc\] |a\.pm-button:hover)/)
    }
    const darkBlock = css.slice(
      css.indexOf('@media (prefers-color-scheme: dark)'),
      css.indexOf('\n}', css.indexOf('@media (prefers-color-scheme: dark)')),
    )
    expect(darkBlock).toMatch(/\.pm-link\b[^{]*\{ color: #aebdff !important; \}/)
  })

  it('refuses to put anything but a web or mail address behind the button', () => {
    expect(() => renderNotification('en_gb', 'paid', 'buyer', { ...facts, link: 'javascript:alert(1)' }, { supportEmail })).toThrow(
      /not a link/,
    )
  })
})

describe('the guest invitation', () => {
  it.each(supportedLocales)('%s: the action accepts the invitation, and the footer stops them with a link', (locale) => {
    const invitation = {
      role: 'buyer' as const,
      kind: 'online' as const,
      description: 'A lamp',
      price: { amount: 10_000, currency: 'eur' as const },
      inviterFirstName: 'Sam',
      clientName: null,
      link: 'https://pactum.example/join-guest-transaction/SECRET/online',
      stopLink: `https://pactum.example/stop-invitations/TOKEN?lang=${locale}`,
    }
    const mail = renderGuestInvitation(locale, invitation, { supportEmail })
    expectWellFormed(mail, locale, { label: messages[locale]['guestInvitation.button'], url: invitation.link })
    expect(mailStructure(mail.html).links).toContain(invitation.stopLink)
    expect(mail.text).toContain(messages[locale]['guestInvitation.stop'].replace('{link}', invitation.stopLink))
  })
})

describe('a sign-in notice', () => {
  it.each(supportedLocales)('%s: greets the owner by name and offers nothing to click', async (locale) => {
    const sent: MailMessage[] = []
    const mailer = { send: async (message: MailMessage) => (sent.push(message), { id: 'x' }) }
    const account = { id: 'a', email: 'anna@example.com', firstName: 'Anna <Ann>', lastName: 'K', locale, emailVerified: true }
    await sendSignInChangeNotice({ mailer, supportEmail }, account, { kind: 'passkey_added', name: 'Phone "<1>"' })
    const [mail] = sent
    expect(mail!.html).toBeDefined()
    expectWellFormed({ subject: mail!.subject, text: mail!.text, html: mail!.html! }, locale, null)
    expect(mail!.text).toContain('Anna <Ann>')
    expect(mailStructure(mail!.html!).visibleText).toContain('Anna <Ann>')
    expect(mail!.html).toContain('Phone &#34;&#60;1&#62;&#34;')
  })
})
