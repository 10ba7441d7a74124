/**
 * Whether a partner client lets its users see `pathname` (spec §1 "routes").
 * A pattern is a path (`/transactions`) or a path and everything under it
 * (`/transactions/*`). No patterns: every route. `/transactions` is always
 * allowed, since that is where a refused route leads.
 */
export function isRouteAllowed(pathname: string, routes: readonly string[], fallback: string): boolean {
  if (routes.length === 0) return true
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  if (path === fallback) return true
  return routes.some((pattern) => {
    if (pattern.endsWith('/*')) {
      const base = pattern.slice(0, -2)
      return path.startsWith(`${base}/`) && path.length > base.length + 1
    }
    return path === pattern
  })
}
