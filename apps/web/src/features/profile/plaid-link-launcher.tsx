import { useEffect, useEffectEvent } from 'react'
import { usePlaidLink } from 'react-plaid-link'

/**
 * Opens Plaid Link (Plaid's own overlay, loaded from cdn.plaid.com by
 * react-plaid-link) with the server's link token as soon as it is ready,
 * and reports how it ended. Only the bank step imports this file (lazily),
 * and only when the server's bank link is Plaid; like the Stripe form it
 * imports nothing of the app's UI kit, so the first load does not change.
 */
export interface PlaidLinkLauncherProps {
  linkToken: string
  /** The seller linked an account: the public token and the account they chose, for the server to exchange. */
  onLinked: (linked: { publicToken: string; accountId: string }) => void
  /** The seller closed Link without linking. */
  onCancelled: () => void
  /** Link could not load, or the bank refused (Plaid's error, already shown to the seller in Link). */
  onFailed: () => void
}

export function PlaidLinkLauncher({ linkToken, onLinked, onCancelled, onFailed }: PlaidLinkLauncherProps) {
  const { open, ready, error } = usePlaidLink({
    token: linkToken,
    onSuccess: (publicToken, metadata) => {
      // The link token lets the seller pick one checking or savings account.
      const account = metadata.accounts[0]
      if (publicToken && account) onLinked({ publicToken, accountId: account.id })
      else onFailed()
    },
    onExit: (exitError) => (exitError ? onFailed() : onCancelled()),
  })
  const failed = useEffectEvent(onFailed)
  useEffect(() => {
    if (ready) open()
  }, [ready, open])
  useEffect(() => {
    // Plaid's script did not load (offline, blocked): Link will never open.
    if (error) failed()
  }, [error])
  return null
}
