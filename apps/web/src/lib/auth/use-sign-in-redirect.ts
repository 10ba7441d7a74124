import { useEffect, useState } from 'react'
import { useAuth } from './auth-context.tsx'

/**
 * Hands the browser over to the sign-in provider once `start` holds, to come
 * back at `returnTo` (on the registration page with `register`; with
 * `loginHint`, an address for the provider to fill in). True once that
 * hand-over failed, for the page to say so instead of waiting forever.
 */
export function useSignInRedirect(start: boolean, returnTo: string, register?: boolean, loginHint?: string): boolean {
  const { signIn } = useAuth()
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (!start) return
    signIn({ returnTo, ...(register === undefined ? {} : { register }), ...(loginHint ? { loginHint } : {}) }).catch((error: unknown) => {
      console.error(error)
      setFailed(true)
    })
  }, [start, signIn, returnTo, register, loginHint])
  return failed
}
