import { onlineStatusSchema } from '@pactum/contracts/transactions'
import { supportedLocales } from '@pactum/domain/locales'
import { refusalStatus } from '@pactum/domain/transactions/kernel'
import { describe, expect, it } from 'vitest'
import { translatedErrorCodes } from '../../lib/api/error-message.ts'

type Tree = { [key: string]: string | Tree }
const dictionaries = import.meta.glob<Tree>('../../i18n/locales/*.json', { eager: true, import: 'default' })
const lookup = (tree: Tree, path: string) =>
  path.split('.').reduce<Tree | string | undefined>((node, key) => (typeof node === 'object' ? node[key] : undefined), tree)

describe('user-facing names', () => {
  it.each(supportedLocales)('%s names every online status, distinctly', (locale) => {
    const tree = dictionaries[`../../i18n/locales/${locale}.json`]
    if (!tree) throw new Error(`no dictionary for ${locale}`)
    const names = onlineStatusSchema.options.map((status) => lookup(tree, `transactionStatusNames.${status}`))
    for (const [index, name] of names.entries()) {
      expect(typeof name, onlineStatusSchema.options[index]).toBe('string')
    }
    expect(new Set(names).size).toBe(names.length)
  })

  it.each(supportedLocales)('%s explains every status to both roles and has a timeline entry for it', (locale) => {
    const tree = dictionaries[`../../i18n/locales/${locale}.json`] as Tree
    for (const status of onlineStatusSchema.options) {
      expect(typeof lookup(tree, `transactionStatus.timeline.${status}`), status).toBe('string')
      for (const role of ['buyer', 'seller']) {
        expect(typeof lookup(tree, `transactionStatus.explain.${status}.${role}`), `${status}.${role}`).toBe('string')
      }
    }
  })

  it('shows its own message for every refusal the transaction machines can answer', () => {
    const translated = new Set<string>(translatedErrorCodes)
    // Admins act through the API only: no screen of the web app makes an admin call.
    const apiOnly = new Set(['not_admin'])
    expect(Object.keys(refusalStatus).filter((code) => !translated.has(code) && !apiOnly.has(code))).toEqual([])
  })

  it.each(supportedLocales)('%s has a message for every error code the screens show', (locale) => {
    const tree = dictionaries[`../../i18n/locales/${locale}.json`] as Tree
    for (const code of [...translatedErrorCodes, 'generic']) {
      expect(typeof lookup(tree, `apiErrors.${code}`), code).toBe('string')
    }
  })
})
