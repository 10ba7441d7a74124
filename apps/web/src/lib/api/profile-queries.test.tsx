import { QueryClient } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createI18n } from '../../i18n/i18n.ts'
import type { ApiError } from './api-error.ts'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { sessionWrapper } from '../../test/render-app.tsx'
import type { PersonalProfile } from './personal-profile.ts'
import { usePersonalProfile } from './profile-queries.ts'

const profile = { details_submitted: true, tos_acceptance: { unix_timestamp: 1_790_000_000 } } satisfies PersonalProfile

/** GET /me/personal answering each of `answers` in turn, the last one from then on. */
async function renderProfileQuery(answers: (() => unknown)[]) {
  const api = fakeApiClient({
    'GET /me/personal': () => answers[Math.min(profileCalls(), answers.length) - 1]!(),
  })
  const profileCalls = () => api.request.mock.calls.filter(([path]) => path === '/me/personal').length
  const i18n = await createI18n('en_gb')
  // As the app's own client does: one retry by default, which the profile query overrides.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } })
  const wrapper = sessionWrapper({ i18n, queryClient, api })
  const { result } = renderHook(() => usePersonalProfile(), { wrapper })
  // The first answer settles without the clock moving, so the retry is due exactly 2 s from now.
  await act(async () => {
    for (let turn = 0; turn < 5; turn++) await vi.advanceTimersByTimeAsync(0)
  })
  const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
  // An answer reaches the query's state through zero-delay timers, which the fake clock
  // puts 1 ms later when they are set while it ticks.
  const settle = () => advance(10)
  return { result, profileCalls, advance, settle }
}

const countryNotSet = () => {
  throw apiError(409, 'active_country_not_set')
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('the profile fetch (spec §8: retry after 2 s on 409)', () => {
  it('asks again once, 2 s after a 409, and shows what the second answer brings', async () => {
    const { result, profileCalls, advance, settle } = await renderProfileQuery([countryNotSet, () => profile])
    expect(profileCalls()).toBe(1)
    expect(result.current.error).toBeNull()
    expect(result.current.isPending).toBe(true)

    await advance(1999)
    expect(profileCalls()).toBe(1)
    await advance(1)
    expect(profileCalls()).toBe(2)
    await settle()
    expect(result.current.data).toEqual(profile)
    expect(result.current.error).toBeNull()
  })

  it('reports active_country_not_set when the second answer is a 409 too, and asks no more', async () => {
    const { result, profileCalls, advance, settle } = await renderProfileQuery([countryNotSet])
    expect(result.current.error).toBeNull()
    await advance(2000)
    expect(profileCalls()).toBe(2)
    await settle()
    expect((result.current.error as ApiError | null)?.code).toBe('active_country_not_set')
    await advance(60_000)
    expect(profileCalls()).toBe(2)
  })

  it('does not retry another client error', async () => {
    const { result, profileCalls, advance } = await renderProfileQuery([
      () => {
        throw apiError(404, 'not_found')
      },
    ])
    expect((result.current.error as ApiError | null)?.code).toBe('not_found')
    await advance(60_000)
    expect(profileCalls()).toBe(1)
  })

  it('retries a server error once, after 1 s, as before', async () => {
    const { result, profileCalls, advance, settle } = await renderProfileQuery([
      () => {
        throw apiError(500, 'internal_error')
      },
    ])
    await advance(999)
    expect(profileCalls()).toBe(1)
    await advance(1)
    expect(profileCalls()).toBe(2)
    await settle()
    expect((result.current.error as ApiError | null)?.code).toBe('internal_error')
    await advance(60_000)
    expect(profileCalls()).toBe(2)
  })
})
