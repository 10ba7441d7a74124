import { pageLoadErrorCodes } from '../lib/api/page-load-errors.ts'

/**
 * Which parts of a dictionary the first screen needs (issue 13: the first
 * load of a signed-in My transactions page is at most 180 kB of gzipped
 * JavaScript, and a whole dictionary is ~20 kB of it). The entries are
 * top-level sections or dotted paths inside one; the sign-in pages, the shell
 * and the transactions list use nothing else (i18n.first-load.test.tsx fails
 * when they do). Everything else arrives in a second chunk, loaded at once in
 * the background, and every lazily loaded page or dialog waits for it.
 */
export const firstLoadSections = [
  'app',
  'auth',
  'errors',
  'shell',
  'menu',
  'transactions',
  'transactionStatusNames',
  // Only what loading a page can answer: the list's and the shell's reads. Actions open dialogs and pages, which wait for the rest.
  ...['generic', ...pageLoadErrorCodes].map((code) => `apiErrors.${code}`),
  'common',
  'roles',
  'feedback',
  'partnerClient',
  'units',
  'amounts',
  'admin.menu',
  'listings.openFromTransactions',
] as const

export type DictionaryPart = 'first' | 'rest'
type Tree = { [key: string]: unknown }

function isTree(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function pick(tree: Tree, path: string[], into: Tree): void {
  const [head, ...rest] = path
  if (head === undefined || !(head in tree)) return
  const value = tree[head]
  if (rest.length === 0 || !isTree(value)) {
    into[head] = value
    return
  }
  const child = isTree(into[head]) ? (into[head] as Tree) : {}
  into[head] = child
  pick(value, rest, child)
}

/**
 * The first part holds the listed sections and paths; the rest holds every
 * top-level section not listed whole (a section listed only in part goes
 * into the rest complete: the translator merges the two deeply).
 */
export function dictionaryPart(dictionary: Tree, part: DictionaryPart, sections: readonly string[] = firstLoadSections): Tree {
  if (part === 'first') {
    const first: Tree = {}
    for (const section of sections) pick(dictionary, section.split('.'), first)
    return first
  }
  const whole = new Set(sections.filter((section) => !section.includes('.')))
  return Object.fromEntries(Object.entries(dictionary).filter(([key]) => !whole.has(key)))
}

/** `./locales/pl_pl.json?part=first`: the query the build turns into one part of that dictionary. */
export const dictionaryPartQuery = /\?part=(first|rest)$/
