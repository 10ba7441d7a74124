import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ApiError } from './api-error.ts'
import { recoverWhileUnreachable } from './recover-while-unreachable.ts'

const unreachable = () => new ApiError({ status: 0, code: 'network_error', message: 'Failed to fetch', requestId: 'r1' })

function List({ load }: { load: () => Promise<string> }) {
  const query = useQuery({ queryKey: ['list'], queryFn: load })
  if (query.data) return <p>{query.data}</p>
  return <p>{query.isError ? 'unreachable' : 'loading'}</p>
}

describe('a read that found Pactum unreachable', () => {
  it('asks again on its own and shows the page once the server answers, without "Try again" (issue 33 item 5)', async () => {
    const answers: Array<() => Promise<string>> = [
      () => Promise.reject(unreachable()),
      () => Promise.reject(new ApiError({ status: 503, code: 'service_unavailable', message: 'down', requestId: 'r2' })),
      () => Promise.resolve('3 transactions'),
    ]
    const load = () => (answers.shift() ?? (() => Promise.resolve('3 transactions')))()
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchInterval: recoverWhileUnreachable(30) } } })
    render(
      <QueryClientProvider client={client}>
        <List load={load} />
      </QueryClientProvider>,
    )
    expect(await screen.findByText('unreachable')).toBeTruthy()
    expect(await screen.findByText('3 transactions', {}, { timeout: 2_000 })).toBeTruthy()
  })

  it('does not ask again after a refusal or a 429, nor once the data is in', () => {
    const interval = recoverWhileUnreachable(30)
    const stateOf = (status: 'error' | 'success', error: unknown) => ({ state: { status, error } }) as never
    expect(interval(stateOf('error', unreachable()))).toBe(30)
    expect(interval(stateOf('error', new ApiError({ status: 502, code: 'internal_error', message: '', requestId: 'r' })))).toBe(30)
    expect(interval(stateOf('error', new ApiError({ status: 404, code: 'not_found', message: '', requestId: 'r' })))).toBe(false)
    expect(interval(stateOf('error', new ApiError({ status: 429, code: 'rate_limited', message: '', requestId: 'r' })))).toBe(false)
    expect(interval(stateOf('success', null))).toBe(false)
  })
})
