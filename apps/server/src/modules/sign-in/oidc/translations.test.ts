import { supportedLocales } from '@pactum/domain/locales'
import { describe, expect, it } from 'vitest'
import { escapeHtml, html } from './html.ts'
import { chooseLocale, messages, translator } from './translations.ts'

describe('sign-in translations', () => {
  const english = messages.en_gb
  it.each(supportedLocales)('%s has every key, none empty, with the same placeholders', (locale) => {
    const table = messages[locale]
    expect(Object.keys(table).sort()).toEqual(Object.keys(english).sort())
    for (const [key, text] of Object.entries(table)) {
      expect(text.trim(), `${locale} ${key}`).not.toBe('')
      const placeholders = (value: string) => (value.match(/\{\w+\}/g) ?? []).sort()
      expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(english[key as keyof typeof english]))
    }
  })

  it('fills placeholders', () => {
    expect(translator('pl_pl')('error.password.too_short', { min: 10 })).toBe('Użyj co najmniej 10 znaków.')
  })

  it('prefers the cookie, then ui_locales, then Accept-Language, then British English', () => {
    expect(chooseLocale({ cookieHeader: 'a=b; locale=pl_pl', uiLocales: 'fi', acceptLanguage: 'sv' })).toBe('pl_pl')
    expect(chooseLocale({ cookieHeader: 'locale=xx_xx', uiLocales: 'de fi-FI', acceptLanguage: 'sv' })).toBe('fi_fi')
    expect(chooseLocale({ acceptLanguage: 'de-DE, it;q=0.9, sv;q=0.95' })).toBe('sv_se')
    expect(chooseLocale({ acceptLanguage: 'de-DE' })).toBe('en_gb')
    expect(chooseLocale({})).toBe('en_gb')
  })
})

describe('html', () => {
  it('escapes interpolated values but not nested markup', () => {
    const name = `<img src=x onerror="alert('x')">&`
    expect(escapeHtml(name)).toBe('&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;')
    expect(html`<p title="${name}">${html`<b>${name}</b>`}</p>`.value).toBe(`<p title="${escapeHtml(name)}"><b>${escapeHtml(name)}</b></p>`)
  })
})
