/**
 * Spec §4: a join code in the URL at startup (/join-transaction/:code) is kept,
 * so that after the blocking country-and-terms dialog the person lands on the
 * transaction they came to join. sessionStorage survives the sign-in redirect
 * but not the tab. A guest's claim link (/join-guest-transaction…) is kept
 * the same way: a guest is typically new, so signs up and meets the dialogs.
 */
const storageKey = 'pactum.joinCode'
const listingStorageKey = 'pactum.joinListing'
// A listing link carries the listing's id (a UUID), not a code.
const listingPath = /^\/join-transaction\/listing\/([0-9a-fA-F-]{36})\/?$/
const claimStorageKey = 'pactum.claimLink'
const claimPath = /^\/join-guest-transaction(?:-as-seller)?\/[A-Za-z0-9_-]+\/[a-z0-9]+\/?$/
// Separators as the join page forgives them (ABCD-2345): the page checks the code itself.
const joinPath = /^\/join-transaction\/([A-Za-z0-9 %-]+)\/?$/

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage
  } catch {
    return undefined
  }
}

/** The join code in `pathname`, if it is a join-by-code link (listing links are not). */
export function joinCodeFromPath(pathname: string): string | null {
  return joinPath.exec(pathname)?.[1] ?? null
}

/** Keeps the join code of `pathname`, if any; other paths leave a kept code alone. */
export function captureJoinCode(pathname: string): void {
  const listing = listingPath.exec(pathname)?.[1]
  if (listing) {
    storage()?.setItem(listingStorageKey, listing)
    return
  }
  const code = joinCodeFromPath(pathname)
  if (code) storage()?.setItem(storageKey, code)
  if (claimPath.test(pathname)) storage()?.setItem(claimStorageKey, pathname)
}

/** The guest claim link kept at startup, if any. */
export function savedClaimLink(): string | null {
  return storage()?.getItem(claimStorageKey) ?? null
}

export function forgetClaimLink(): void {
  storage()?.removeItem(claimStorageKey)
}

/** The listing link kept at startup, as the join code is: the buyer lands on it after the onboarding dialogs. */
export function savedListingId(): string | null {
  return storage()?.getItem(listingStorageKey) ?? null
}

export function forgetListingId(): void {
  storage()?.removeItem(listingStorageKey)
}

export function savedJoinCode(): string | null {
  return storage()?.getItem(storageKey) ?? null
}

export function forgetJoinCode(): void {
  storage()?.removeItem(storageKey)
}
