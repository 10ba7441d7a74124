/**
 * Spec §1: `?client_id=` on any route selects a partner client. The id is
 * kept for the tab (sessionStorage), so it survives the sign-in round trip
 * and a reload, and transactions created later record it.
 */
const storageKey = 'pactum.clientId'
const clientIdShape = /^[a-z0-9][a-z0-9-]{0,63}$/

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage
  } catch {
    return undefined
  }
}

/** Keeps the `client_id` of a location's query, if it has a well-formed one; other locations leave a kept id alone. */
export function captureClientId(search: string): void {
  const clientId = new URLSearchParams(search).get('client_id')
  if (clientId && clientIdShape.test(clientId)) storage()?.setItem(storageKey, clientId)
}

export function savedClientId(): string | null {
  return storage()?.getItem(storageKey) ?? null
}

/** An unknown client is ignored: default look, and nothing recorded on transactions. */
export function forgetClientId(): void {
  storage()?.removeItem(storageKey)
}
