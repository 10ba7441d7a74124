import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { profileNeedsAttention } from './use-profile-warning.ts'

describe('profileNeedsAttention', () => {
  it('warns when details are not submitted or payout requirements are due', () => {
    expect(profileNeedsAttention({ details_submitted: false }, { status: 'not_due' })).toBe(true)
    expect(profileNeedsAttention({ details_submitted: true }, { status: 'due' })).toBe(true)
    expect(profileNeedsAttention({ details_submitted: true }, { status: 'not_due' })).toBe(false)
  })

  it('does not press someone who only buys with payout requirements (issue 33 item 10)', () => {
    expect(profileNeedsAttention({ details_submitted: true }, { status: 'due', sells: false })).toBe(false)
    expect(profileNeedsAttention({ details_submitted: true }, { status: 'due', sells: true })).toBe(true)
  })

  it('does not warn while loading or after an error (no data)', () => {
    expect(profileNeedsAttention(undefined, undefined)).toBe(false)
    expect(profileNeedsAttention({ details_submitted: true }, undefined)).toBe(false)
    expect(profileNeedsAttention(undefined, { status: 'not_due' })).toBe(false)
  })
})

const setUp = {
  details_submitted: true,
  tos_acceptance: { unix_timestamp: 1_790_000_000 },
}
const notDue = { status: 'not_due', requirements: { personal: [], other: [] }, details_submitted: true }

describe('useProfileWarning in the sidebar', () => {
  async function warningFor(routes: Record<string, unknown>) {
    const api = fakeApiClient({ ...defaultApiRoutes(), ...routes })
    await renderApp('/transactions', { api })
    await screen.findByRole('heading', { level: 1, name: 'My transactions' })
    await waitFor(() => expect(api.request).toHaveBeenCalledWith('/me/personal/payout_requirements'))
    return api
  }

  it('shows the icon when personal details are not submitted', async () => {
    await warningFor({ 'GET /me/personal': { ...setUp, details_submitted: false }, 'GET /me/personal/payout_requirements': notDue })
    expect(await screen.findByTestId('profile-warning')).toBeTruthy()
  })

  it('shows the icon when payout requirements are due', async () => {
    await warningFor({ 'GET /me/personal': setUp, 'GET /me/personal/payout_requirements': { ...notDue, status: 'due' } })
    expect(await screen.findByTestId('profile-warning')).toBeTruthy()
  })

  it('shows no icon when all is well, or when the calls fail', async () => {
    await warningFor({ 'GET /me/personal': setUp, 'GET /me/personal/payout_requirements': notDue })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByTestId('profile-warning')).toBeNull()
  })

  it('shows no icon when the profile answers 409 (no country yet), and asks nothing more that would answer 409', async () => {
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /me/personal': () => {
        throw apiError(409, 'active_country_not_set')
      },
      'GET /me/personal/payout_requirements': () => {
        throw apiError(409, 'active_country_not_set')
      },
    })
    await renderApp('/transactions', { api })
    await screen.findByRole('heading', { level: 1, name: 'My transactions' })
    await waitFor(() => expect(api.request).toHaveBeenCalledWith('/me/personal'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByTestId('profile-warning')).toBeNull()
    // Issue 33 item 13: the payout requirements wait for a profile that answers.
    expect(api.request).not.toHaveBeenCalledWith('/me/personal/payout_requirements')
  })
})
