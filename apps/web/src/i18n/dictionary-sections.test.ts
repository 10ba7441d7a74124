import { describe, expect, it } from 'vitest'
import { dictionaryPart, firstLoadSections } from './dictionary-sections.ts'
import enGb from './locales/en_gb.json'

const dictionary = {
  app: { title: 'Pactum' },
  listings: { openFromTransactions: 'Listings', title: 'Your listings' },
  profile: { title: 'Profile' },
}

describe('dictionary parts', () => {
  it('puts the listed sections and paths in the first part', () => {
    expect(dictionaryPart(dictionary, 'first', ['app', 'listings.openFromTransactions', 'missing.path'])).toEqual({
      app: { title: 'Pactum' },
      listings: { openFromTransactions: 'Listings' },
    })
  })

  it('puts every section not listed whole in the rest, partly listed ones complete', () => {
    expect(dictionaryPart(dictionary, 'rest', ['app', 'listings.openFromTransactions'])).toEqual({
      listings: { openFromTransactions: 'Listings', title: 'Your listings' },
      profile: { title: 'Profile' },
    })
  })

  it('lists only sections and paths the dictionaries have', () => {
    for (const path of firstLoadSections) {
      const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], enGb)
      expect(value, path).toBeDefined()
    }
  })

  it('keeps the first part small: a fraction of the whole', () => {
    const first = JSON.stringify(dictionaryPart(enGb, 'first')).length
    expect(first).toBeLessThan(JSON.stringify(enGb).length / 4)
  })
})
