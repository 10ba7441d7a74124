import { Navigate, useLocation } from 'react-router'

/** A permanent in-app redirect that keeps the query (client_id and friends). */
export function Redirect({ to }: { to: string }) {
  const { search } = useLocation()
  return <Navigate to={{ pathname: to, search }} replace />
}
