import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { newPersonalProfile } from '../../test/fake-personal-profile.ts'
import { afterOnboarding } from './after-onboarding.ts'
import { captureJoinCode, joinCodeFromPath, savedClaimLink, savedJoinCode } from './join-code-memory.ts'
import { reloadPage } from './reload-page.ts'

vi.mock('./reload-page.ts', () => ({ reloadPage: vi.fn() }))

const countries = [
  { code: 'PL', name: 'Poland', divisionLabel: 'Voivodeship', dialCode: '+48' },
  { code: 'FI', name: 'Finland', divisionLabel: 'Region', dialCode: '+358' },
  { code: 'GB', name: 'United Kingdom', divisionLabel: 'County', dialCode: '+44' },
]

/** A server where the person has no country until set_active_country and no terms until accept_tos_direct. */
function newUserApi({ failSetCountry = false } = {}) {
  let country: string | null = null
  let accepted = false
  const api = fakeApiClient({
    ...defaultApiRoutes(),
    'GET /supported_countries': countries,
    'GET /me/personal': () => {
      if (!country) throw apiError(409, 'active_country_not_set')
      return newPersonalProfile({ tos_acceptance: { unix_timestamp: accepted ? 1_790_000_000 : 0 } })
    },
    'GET /me/personal/payout_requirements': () => {
      if (!accepted) throw apiError(409, 'tos_not_accepted')
      return { status: 'not_due', requirements: { personal: [], other: [] }, details_submitted: true }
    },
    'POST /me/personal/set_active_country': ({ body }: { body?: unknown }) => {
      if (failSetCountry) throw apiError(500, 'internal_error')
      country = (body as { country_code: string }).country_code
      return undefined
    },
    'POST /me/accept_tos_direct': () => {
      accepted = true
      return {}
    },
  })
  return api
}

async function chooseCountry(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, name: string) {
  const input = within(dialog).getByRole('combobox', { name: /country/i })
  await user.click(input)
  await user.type(input, name.slice(0, 3))
  await user.click(await screen.findByRole('option', { name }))
}

/**
 * Spec §8: a 409 from /me/personal is asked again 2 s later before the dialog opens. The
 * clock (fake, but also moving with real time) is moved past that second question.
 */
async function findWelcomeDialog(api: ReturnType<typeof newUserApi>, name = 'Welcome to Pactum') {
  const profileCalls = () => api.request.mock.calls.filter(([path]) => path === '/me/personal').length
  await waitFor(() => expect(profileCalls()).toBe(1))
  expect(screen.queryByRole('dialog', { name })).toBeNull()
  await act(() => vi.advanceTimersByTimeAsync(2000))
  expect(profileCalls()).toBe(2)
  return screen.findByRole('dialog', { name })
}

/** A user whose pauses move the fake clock. */
function setUpUser() {
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
}

beforeEach(() => {
  sessionStorage.clear()
  vi.mocked(reloadPage).mockClear()
})

describe('country-and-terms dialog (spec §2, §4, §5, §8)', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }))
  afterEach(() => vi.useRealTimers())

  it('appears when /me/personal still answers 409 active_country_not_set 2 s later, and cannot be dismissed', async () => {
    const user = setUpUser()
    const api = newUserApi()
    await renderApp('/transactions', { api })
    const dialog = await findWelcomeDialog(api)
    expect(within(dialog).getByRole('combobox', { name: /country/i })).toBeTruthy()
    await user.keyboard('{Escape}')
    expect(screen.getByRole('dialog', { name: 'Welcome to Pactum' })).toBeTruthy()
    // The new user's missing terms are the country dialog's job, not a second dialog's.
    expect(screen.queryByRole('dialog', { name: 'Our terms of service have been updated' })).toBeNull()
    expect(
      within(dialog)
        .getByRole('link', { name: /read the terms of service/i })
        .getAttribute('href'),
    ).toBe('/terms')
  })

  it('keeps submit disabled until a country is chosen and the terms are agreed, with field errors', async () => {
    const user = setUpUser()
    const api = newUserApi()
    await renderApp('/transactions', { api })
    const dialog = await findWelcomeDialog(api)
    const submit = within(dialog).getByRole('button', { name: 'Continue' }) as HTMLButtonElement
    expect(submit.disabled).toBe(true)

    // Leaving the country empty, and unticking the box, say what is wrong.
    await user.click(within(dialog).getByRole('combobox', { name: /country/i }))
    await user.tab()
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy()
    const agree = within(dialog).getByRole('checkbox', { name: 'I agree to the terms of service' })
    await user.click(agree)
    expect(submit.disabled).toBe(true)
    await user.click(agree)
    expect(within(dialog).getByText('You must agree.')).toBeTruthy()

    await chooseCountry(user, dialog, 'Poland')
    expect(within(dialog).queryByText('This field is required.')).toBeNull()
    expect(submit.disabled).toBe(true)
    await user.click(agree)
    expect(within(dialog).queryByText('You must agree.')).toBeNull()
    expect(submit.disabled).toBe(false)
  })

  it('shows the error messages in the interface language', async () => {
    const user = setUpUser()
    const api = newUserApi()
    await renderApp('/transactions', { api, locale: 'pl_pl' })
    const dialog = await findWelcomeDialog(api, 'Witamy w Pactum')
    const agree = within(dialog).getByRole('checkbox', { name: 'Akceptuję regulamin' })
    await user.click(agree)
    await user.click(agree)
    expect(within(dialog).getByText('Musisz wyrazić zgodę.')).toBeTruthy()
    await user.click(within(dialog).getByRole('combobox', { name: /kraj/i }))
    await user.tab()
    expect(await within(dialog).findByText('To pole jest wymagane.')).toBeTruthy()
  })

  it('sets the country, then accepts the terms, then goes to the join link kept at startup', async () => {
    const user = setUpUser()
    captureJoinCode('/join-transaction/ABCD2345')
    const api = newUserApi()
    const { router } = await renderApp('/transactions', { api })
    const dialog = await findWelcomeDialog(api)
    await chooseCountry(user, dialog, 'Poland')
    await user.click(within(dialog).getByRole('checkbox', { name: 'I agree to the terms of service' }))
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/join-transaction/ABCD2345'))
    const posts = api.request.mock.calls.filter(([, init]) => init?.method === 'POST')
    expect(posts.map(([path]) => path)).toEqual(['/me/personal/set_active_country', '/me/accept_tos_direct'])
    expect(posts[0]?.[1]?.body).toEqual({ country_code: 'PL' })
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Welcome to Pactum' })).toBeNull())
    expect(screen.queryByRole('dialog', { name: 'Our terms of service have been updated' })).toBeNull()
    expect(reloadPage).not.toHaveBeenCalled()
  })

  it('goes to the listing link kept at startup, once', () => {
    const id = '3f2b8c1e-0a4d-4e6f-9b7a-2c1d0e9f8a7b'
    captureJoinCode(`/join-transaction/listing/${id}`)
    expect(savedJoinCode()).toBeNull()
    expect(afterOnboarding('')).toEqual({ kind: 'navigate', to: `/join-transaction/listing/${id}` })
    expect(afterOnboarding('')).toEqual({ kind: 'navigate', to: '/' })
  })

  it('goes to / without a kept join link, and reloads when the URL carries prefill parameters', async () => {
    expect(afterOnboarding('')).toEqual({ kind: 'navigate', to: '/' })
    expect(afterOnboarding('?client_id=x')).toEqual({ kind: 'navigate', to: '/' })
    for (const param of ['model', 'cur', 'user', 'price', 'deposit', 'desc']) {
      expect(afterOnboarding(`?${param}=1`)).toEqual({ kind: 'reload' })
    }

    const user = setUpUser()
    const api = newUserApi()
    await renderApp('/create-transaction?user=seller&price=100', { api })
    const dialog = await findWelcomeDialog(api)
    await chooseCountry(user, dialog, 'Finland')
    await user.click(within(dialog).getByRole('checkbox', { name: 'I agree to the terms of service' }))
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1))
  })

  it('shows the error modal when setting the country fails, and does not accept the terms', async () => {
    const user = setUpUser()
    const api = newUserApi({ failSetCountry: true })
    await renderApp('/transactions', { api })
    const dialog = await findWelcomeDialog(api)
    await chooseCountry(user, dialog, 'Poland')
    await user.click(within(dialog).getByRole('checkbox', { name: 'I agree to the terms of service' }))
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('dialog', { name: 'Error!' })).toBeTruthy()
    expect(api.request.mock.calls.some(([path]) => path === '/me/accept_tos_direct')).toBe(false)
  })
})

describe('join code kept at startup (spec §4)', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }))
  afterEach(() => vi.useRealTimers())

  it('reads join-by-code links only', () => {
    expect(joinCodeFromPath('/join-transaction/ABCD2345')).toBe('ABCD2345')
    expect(joinCodeFromPath('/join-transaction/abcd-2345')).toBe('abcd-2345')
    expect(joinCodeFromPath('/join-transaction/listing/l-7')).toBeNull()
    expect(joinCodeFromPath('/join-transaction')).toBeNull()
    expect(joinCodeFromPath('/transactions')).toBeNull()
  })

  it('keeps the code of the first signed-in location', async () => {
    const api = newUserApi()
    await renderApp('/join-transaction/QWER5678', { api })
    await findWelcomeDialog(api)
    expect(savedJoinCode()).toBe('QWER5678')
  })

  it('keeps a guest claim link too, and goes back to it once after the dialogs', () => {
    const link = '/join-guest-transaction-as-seller/abc_DEF-123/f2f'
    captureJoinCode('/transactions')
    expect(savedClaimLink()).toBeNull()
    captureJoinCode(link)
    expect(savedClaimLink()).toBe(link)
    expect(afterOnboarding('')).toEqual({ kind: 'navigate', to: link })
    expect(savedClaimLink()).toBeNull()
  })
})

describe('terms-updated dialog (spec §2, §8)', () => {
  it('appears when payout requirements answer tos_not_accepted and goes once the terms are accepted', async () => {
    const user = userEvent.setup()
    let accepted = false
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /me/personal': newPersonalProfile(),
      'GET /me/personal/payout_requirements': () => {
        if (!accepted) throw apiError(409, 'tos_not_accepted')
        return { status: 'not_due', requirements: { personal: [], other: [] }, details_submitted: true }
      },
      'POST /me/accept_tos_direct': () => {
        accepted = true
        return {}
      },
    })
    await renderApp('/transactions', { api })
    const dialog = await screen.findByRole('dialog', { name: 'Our terms of service have been updated' })
    expect(screen.queryByRole('dialog', { name: 'Welcome to Pactum' })).toBeNull()
    const submit = within(dialog).getByRole('button', { name: 'Agree and continue' }) as HTMLButtonElement
    expect(submit.disabled).toBe(true)
    await user.click(within(dialog).getByRole('checkbox', { name: 'I agree to the terms of service' }))
    await user.click(submit)
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Our terms of service have been updated' })).toBeNull())
    expect(api.request).toHaveBeenCalledWith('/me/accept_tos_direct', { method: 'POST' })
  })

  it('also appears for a profile whose terms timestamp is 0', async () => {
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /me/personal': newPersonalProfile({ tos_acceptance: { unix_timestamp: 0 } }),
    })
    await renderApp('/transactions', { api })
    expect(await screen.findByRole('dialog', { name: 'Our terms of service have been updated' })).toBeTruthy()
  })

  it('shows nothing for a set-up person', async () => {
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /me/personal': newPersonalProfile(),
      'GET /me/personal/payout_requirements': { status: 'not_due', requirements: { personal: [], other: [] } },
    })
    await renderApp('/transactions', { api })
    await screen.findByRole('heading', { level: 1, name: 'My transactions' })
    await waitFor(() => expect(api.request).toHaveBeenCalledWith('/me/personal/payout_requirements'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
