import { catalogue, offeredAs } from '@pactum/contracts/transaction-actions'
import { describe, expect, it } from 'vitest'
import { actionCallerRows, authorizationMatrix, type RouteKey } from '../../../http/authorization-matrix.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'

const routes = catalogue.flatMap(([name, entry]) =>
  transactionKinds.flatMap((kind) => {
    const route = entry[kind]
    if (!route) return []
    const key: RouteKey = `${entry.method ?? 'POST'} /api/v1${kindRoutes[kind].prefix}/transactions/:id${route.path ? `/${route.path}` : ''}`
    return [{ name, kind, key, who: entry.who, offered: offeredAs(name, route) }]
  }),
)

describe('the action catalogue', () => {
  it('names every route the authorization matrix lists for it, with the row its caller has', () => {
    for (const { key, who } of routes) {
      expect.soft(authorizationMatrix[key as keyof typeof authorizationMatrix], key).toEqual(actionCallerRows[who])
    }
  })

  it('gives each kind one route a path', () => {
    const keys = routes.map((route) => route.key)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('has every action of both state machines, under the path available_actions names', async () => {
    const { onlineActions, f2fActions } = await import('@pactum/domain/transactions/available-actions')
    // `join` has its own routes (the code in the query or the path), `release_funds` and `decide` are the admin's.
    const elsewhere = new Set(['join', 'release_funds', 'decide'])
    for (const [kind, actions] of [
      ['online', onlineActions],
      ['f2f', f2fActions],
    ] as const) {
      const offered = new Set(routes.filter((route) => route.kind === kind).map((route) => route.offered))
      for (const action of actions) if (!elsewhere.has(action)) expect.soft(offered.has(action), `${kind} ${action}`).toBe(true)
    }
  })
})
