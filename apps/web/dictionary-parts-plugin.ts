import type { Plugin } from 'vite'
import { dictionaryPart, dictionaryPartQuery } from './src/i18n/dictionary-sections.ts'

/**
 * Serves `src/i18n/locales/<locale>.json?part=first|rest` as that part of the
 * dictionary, so each language is two chunks: what the first screen needs and
 * the rest (src/i18n/dictionary-sections.ts), each a module whose default
 * export is the trimmed dictionary.
 */
export function dictionaryParts(): Plugin {
  return {
    name: 'pactum:dictionary-parts',
    enforce: 'pre',
    transform(code, id) {
      const part = dictionaryPartQuery.exec(id)?.[1]
      if ((part !== 'first' && part !== 'rest') || !/\/src\/i18n\/locales\/[a-z_]+\.json\?/.test(id)) return null
      const trimmed = JSON.stringify(dictionaryPart(JSON.parse(code) as Record<string, unknown>, part))
      // JSON.parse of a string literal: how Vite itself ships large JSON (parsed faster than an object literal).
      return { code: `export default JSON.parse(${JSON.stringify(trimmed)})`, map: null, moduleType: 'js' }
    },
  }
}
