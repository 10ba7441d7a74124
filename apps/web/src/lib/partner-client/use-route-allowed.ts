import { namedRoutes } from '../named-routes.ts'
import { isRouteAllowed } from './allowed-routes.ts'
import { usePartnerClient } from './partner-client-query.ts'

/**
 * Whether a link to `path` leads anywhere under the partner client of this
 * tab: a route the client hides would only send the person back to My
 * transactions, so links to it are left out. Every route without a client.
 */
export function useRouteAllowed(): (path: string) => boolean {
  const client = usePartnerClient()
  return (path) => client === null || isRouteAllowed(path, client.routes, namedRoutes.transactions)
}
