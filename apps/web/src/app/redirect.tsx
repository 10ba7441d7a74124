import { Navigate, useLocation } from 'react-router'

/** A permanent in-app redirect that keeps the query (client_id and friends); `hash` scrolls to a section. */
export function Redirect({ to, hash }: { to: string; hash?: string }) {
  const { search } = useLocation()
  return <Navigate to={{ pathname: to, search, ...(hash ? { hash } : {}) }} replace />
}
