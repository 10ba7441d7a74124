import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { newPersonalProfile } from '../../test/fake-personal-profile.ts'

const profile = newPersonalProfile()

function api({ seen = false, onboarded = true } = {}) {
  let tourSeen = seen
  return fakeApiClient({
    ...defaultApiRoutes(),
    'GET /supported_countries': [],
    'GET /me/personal': () => {
      if (!onboarded) throw apiError(409, 'active_country_not_set')
      return profile
    },
    'GET /me/personal/payout_requirements': { status: 'not_due', requirements: { personal: [], other: [] }, details_submitted: true },
    'GET /me/guided_tour': () => ({ seen: tourSeen }),
    'POST /me/guided_tour/seen': () => {
      tourSeen = true
      return { seen: true }
    },
  })
}

const seenCalls = (client: ReturnType<typeof api>) => client.request.mock.calls.filter(([path]) => path === '/me/guided_tour/seen')

describe('the guided tour (spec §2)', () => {
  it('opens for a new user with its first step, and goes next and back with the step announced', async () => {
    await renderApp('/transactions', { api: api() })
    const tour = await screen.findByRole('dialog', { name: 'How Pactum works' })
    expect(within(tour).getByRole('heading', { name: 'Transact safely' })).toBeTruthy()
    expect(screen.getByTestId('guided-tour-announcement').textContent).toBe('Step 1 of 5: Transact safely')
    expect(within(tour).queryByTestId('guided-tour-back')).toBeNull()

    await userEvent.click(within(tour).getByTestId('guided-tour-next'))
    const heading = within(tour).getByRole('heading', { name: 'Create or join a transaction' })
    await waitFor(() => expect(document.activeElement).toBe(heading))
    expect(screen.getByTestId('guided-tour-announcement').textContent).toBe('Step 2 of 5: Create or join a transaction')
    expect(within(tour).getByRole('button', { name: 'Go to step 2: Create or join a transaction' }).getAttribute('aria-current')).toBe(
      'step',
    )

    await userEvent.click(within(tour).getByTestId('guided-tour-back'))
    expect(within(tour).getByRole('heading', { name: 'Transact safely' })).toBeTruthy()
  })

  it('ends with the captioned video step and its text alternative; finish remembers it', async () => {
    const client = api()
    await renderApp('/transactions', { api: client })
    const tour = await screen.findByRole('dialog', { name: 'How Pactum works' })
    await userEvent.click(within(tour).getByRole('button', { name: 'Go to step 5: Watch how it works' }))
    const video = within(tour).getByTestId('guided-tour-video') as HTMLVideoElement
    expect(video.autoplay).toBe(false)
    expect(video.muted).toBe(true)
    const track = video.querySelector('track')
    expect(track?.getAttribute('kind')).toBe('captions')
    expect(track?.getAttribute('src')).toBe('/tour/tour-video.en_gb.vtt')
    expect(within(tour).getByText(/The clip shows four cards/)).toBeTruthy()
    expect(within(tour).queryByTestId('guided-tour-next')).toBeNull()

    await userEvent.click(within(tour).getByTestId('guided-tour-finish'))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'How Pactum works' })).toBeNull())
    expect(seenCalls(client)).toHaveLength(1)
  })

  it('can be skipped from the keyboard, and is remembered as seen', async () => {
    const client = api()
    await renderApp('/transactions', { api: client })
    await screen.findByRole('dialog', { name: 'How Pactum works' })
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'How Pactum works' })).toBeNull())
    expect(seenCalls(client)).toHaveLength(1)
  })

  it('is not shown to someone who has seen it', async () => {
    const client = api({ seen: true })
    await renderApp('/transactions', { api: client })
    await waitFor(() => expect(client.request).toHaveBeenCalledWith('/me/guided_tour'))
    await waitFor(() => expect(client.request).toHaveBeenCalledWith('/me/personal/payout_requirements'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(screen.queryByRole('dialog', { name: 'How Pactum works' })).toBeNull()
  })

  it('waits for the onboarding dialogs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      await renderApp('/transactions', { api: api({ onboarded: false }) })
      // The profile's 409 is asked once more after 2 s before the country prompt opens (spec §8).
      await act(() => vi.advanceTimersByTimeAsync(2000))
      expect(await screen.findByRole('dialog', { name: 'Welcome to Pactum' })).toBeTruthy()
      expect(screen.queryByRole('dialog', { name: 'How Pactum works' })).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('reopens from the FAQ page, from its first step, without asking the server again', async () => {
    const client = api({ seen: true })
    await renderApp('/profile/help/faq', { api: client })
    await userEvent.click(await screen.findByTestId('open-guided-tour'))
    const tour = await screen.findByRole('dialog', { name: 'How Pactum works' })
    await userEvent.click(within(tour).getByTestId('guided-tour-next'))
    await userEvent.click(within(tour).getByTestId('guided-tour-skip'))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'How Pactum works' })).toBeNull())
    await userEvent.click(screen.getByTestId('open-guided-tour'))
    expect(
      within(await screen.findByRole('dialog', { name: 'How Pactum works' })).getByRole('heading', { name: 'Transact safely' }),
    ).toBeTruthy()
    expect(seenCalls(client)).toHaveLength(0)
  })
})
