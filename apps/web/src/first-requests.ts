// The first thing index.html runs (async, as soon as it arrives; the app's script imports it, so it runs first
// in any case). app/first-requests.ts says why.
import { startFirstRequests } from './app/first-requests.ts'
import { startFirstDictionaryPart } from './i18n/first-dictionary-parts.ts'
import { pickInitialLocale } from './i18n/initial-locale.ts'

startFirstRequests(window.location, window.localStorage)
startFirstDictionaryPart(pickInitialLocale(document.cookie, navigator.languages))
