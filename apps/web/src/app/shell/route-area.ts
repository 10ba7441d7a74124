export type RouteArea = 'transactions' | 'create' | 'join' | 'profile' | 'help'

/** Which area a path belongs to, for the page's background art. */
export function routeArea(pathname: string): RouteArea {
  if (pathname.startsWith('/create-transaction') || pathname.startsWith('/build-transaction')) return 'create'
  if (pathname.startsWith('/join-')) return 'join'
  if (pathname.startsWith('/profile/help')) return 'help'
  if (pathname.startsWith('/profile')) return 'profile'
  return 'transactions'
}
