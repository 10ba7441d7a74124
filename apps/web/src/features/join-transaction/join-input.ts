import { checkJoinCode, joinCodeAlphabet, joinCodeLength, tidyJoinCode } from '@pactum/domain/join-code-format'
import { checkListingCode, formatListingCode, listingCodeLength } from '@pactum/domain/listing-code'
import { routeTo } from '../../lib/named-routes.ts'

/**
 * What someone may type or paste into the join form (issue 12 leftovers):
 * an 8-character join code, a listing's 10-character code (issue 33 item 9;
 * or its id, a UUID, which older listing pages showed), or either link
 * whole. The two codes share an alphabet and differ in length, so the input
 * alone says which it is. Read without the network; the page behind the
 * path says whether the code exists.
 */
export type JoinInputReading =
  | { readonly valid: true; readonly kind: 'joinCode' | 'listing'; readonly path: string }
  | { readonly valid: false; readonly reason: 'empty' | 'length' | 'listingCode' | 'link' | 'unrecognised' }
  | { readonly valid: false; readonly reason: 'characters'; readonly characters: readonly string[] }

const uuidShape = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/
const hexAndHyphens = /^[0-9a-f-]+$/
const clientIdShape = /^[a-z0-9][a-z0-9-]{0,63}$/

/** The listing a code or id names, as its page's path segment: the short code grouped, or the UUID. */
function listingId(value: string): string | null {
  const code = checkListingCode(value)
  if (code.valid) return formatListingCode(code.code)
  const compact = value.replace(/\s/g, '').toLowerCase()
  if (!uuidShape.test(compact)) return null
  const hex = compact.replace(/-/g, '')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A partner client named in a pasted link travels on, so that the page opens in its look (spec §1). */
function clientQuery(url: URL): Record<string, string> | undefined {
  const clientId = url.searchParams.get('client_id')
  return clientId && clientIdShape.test(clientId) ? { client_id: clientId } : undefined
}

function readLink(input: string): JoinInputReading {
  let url: URL
  try {
    // A link copied without its scheme ("pactum.example/join-transaction/…") starts with the host.
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) || input.startsWith('/') ? input : `https://${input}`
    url = new URL(absolute, 'https://link.invalid')
  } catch {
    return { valid: false, reason: 'link' }
  }
  const query = clientQuery(url)
  const segments = url.pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => decodeURIComponent(segment))
  if (segments[0]?.toLowerCase() !== 'join-transaction') return { valid: false, reason: 'link' }
  if (segments.length === 3 && segments[1]?.toLowerCase() === 'listing') {
    const id = listingId(segments[2] ?? '')
    return id ? { valid: true, kind: 'listing', path: routeTo('joinListing', { id }, query) } : { valid: false, reason: 'link' }
  }
  if (segments.length === 2) {
    const check = checkJoinCode(segments[1] ?? '')
    return check.valid
      ? { valid: true, kind: 'joinCode', path: routeTo('joinTransactionByCode', { id: check.code }, query) }
      : { valid: false, reason: 'link' }
  }
  return { valid: false, reason: 'link' }
}

/** Reads the form's input, whole: case, spaces and hyphens are forgiven; nothing else is repaired. */
export function readJoinInput(raw: string): JoinInputReading {
  const input = raw.trim()
  if (input === '') return { valid: false, reason: 'empty' }
  if (input.includes('/')) return readLink(input)
  const id = listingId(input)
  if (id) return { valid: true, kind: 'listing', path: routeTo('joinListing', { id }) }
  const tidied = tidyJoinCode(input)
  if (tidied.length > joinCodeLength) {
    // Longer than a join code: meant as a listing code if it has only a listing code's characters
    // (or an id's: hex digits and hyphens).
    const asListingCode = checkListingCode(input)
    const listingLike =
      (tidied.length < listingCodeLength && !asListingCode.valid && asListingCode.reason === 'length') ||
      hexAndHyphens.test(input.replace(/\s/g, '').toLowerCase())
    return listingLike ? { valid: false, reason: 'listingCode' } : { valid: false, reason: 'unrecognised' }
  }
  const check = checkJoinCode(input)
  if (check.valid) return { valid: true, kind: 'joinCode', path: routeTo('joinTransactionByCode', { id: check.code }) }
  return check.reason === 'characters'
    ? { valid: false, reason: 'characters', characters: check.characters }
    : { valid: false, reason: 'length' }
}

/** While typing: how far a join code has come, when the input can still be one (else null, nothing to count). */
export function joinCodeProgress(raw: string): number | null {
  const tidied = tidyJoinCode(raw.trim())
  if (tidied.length > joinCodeLength || Array.from(tidied).some((char) => !joinCodeAlphabet.includes(char))) return null
  return joinCodeLength - tidied.length
}

/**
 * While typing: the characters no join code contains, said at once — unless
 * the input may still become a listing code (hex digits and hyphens), whose
 * digits 0 and 1 are no mistake there.
 */
export function foreignJoinCodeCharacters(raw: string): string[] {
  const input = raw.trim()
  if (input.includes('/') || hexAndHyphens.test(input.replace(/\s/g, '').toLowerCase())) return []
  const tidied = tidyJoinCode(input)
  if (tidied.length > joinCodeLength) return []
  return [...new Set(Array.from(tidied).filter((char) => !joinCodeAlphabet.includes(char)))]
}
