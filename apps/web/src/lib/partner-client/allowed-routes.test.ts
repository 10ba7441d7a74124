import { describe, expect, it } from 'vitest'
import { isRouteAllowed } from './allowed-routes.ts'

describe('isRouteAllowed', () => {
  const routes = ['/create-transaction', '/transactions/*', '/profile/help/*']

  it('allows exact paths and everything under a /* pattern', () => {
    expect(isRouteAllowed('/create-transaction', routes, '/transactions')).toBe(true)
    expect(isRouteAllowed('/create-transaction/', routes, '/transactions')).toBe(true)
    expect(isRouteAllowed('/transactions/abc', routes, '/transactions')).toBe(true)
    expect(isRouteAllowed('/profile/help/faq', routes, '/transactions')).toBe(true)
  })

  it('refuses other paths, including look-alikes of a pattern', () => {
    expect(isRouteAllowed('/profile/balance', routes, '/transactions')).toBe(false)
    expect(isRouteAllowed('/create-transaction-other', routes, '/transactions')).toBe(false)
    expect(isRouteAllowed('/profile/help', routes, '/transactions')).toBe(false)
    expect(isRouteAllowed('/profile/helpdesk/x', routes, '/transactions')).toBe(false)
  })

  it('always allows the fallback, and every path when there are no patterns', () => {
    expect(isRouteAllowed('/transactions', ['/create-transaction'], '/transactions')).toBe(true)
    expect(isRouteAllowed('/profile/balance', [], '/transactions')).toBe(true)
  })
})
