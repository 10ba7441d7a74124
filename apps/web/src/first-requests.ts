// The first thing index.html runs (async, as soon as it arrives; the app's script imports it, so it runs first
// in any case). app/first-requests.ts says why.
import { toLanguageTag } from '@pactum/domain/locales'
import { startFirstRequests } from './app/first-requests.ts'
import { startFirstDictionaryPart } from './i18n/first-dictionary-parts.ts'
import { pickInitialLocale } from './i18n/initial-locale.ts'
import { mobileBreakpointPx } from './lib/constants.ts'

const locale = pickInitialLocale(document.cookie, navigator.languages)
const wide = window.matchMedia(`(min-width:${mobileBreakpointPx}px)`).matches
startFirstRequests(window.location, window.localStorage, { wide, language: toLanguageTag(locale) })
startFirstDictionaryPart(locale)
