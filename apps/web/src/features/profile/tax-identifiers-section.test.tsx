import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { fakePersonalProfile } from '../../test/fake-personal-profile.ts'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'

function profile(country: string, ssnLast4Provided: boolean): PersonalProfile {
  return fakePersonalProfile({
    phone: '+12025550123',
    ssn_last_4_provided: ssnLast4Provided,
    name: { first: 'Ann', last: 'Lee' },
    address: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postal_code: '73301', country_code: country },
    metadata: { phone_country_code: country },
  })
}

const requirements = (other: string[]) => ({
  status: other.length ? 'due' : 'not_due',
  requirements: { personal: [], other },
  details_submitted: true,
})

async function openPage(
  country: string,
  ssnLast4Provided: boolean,
  other: string[],
  put: (request: ApiRequest) => unknown = () => profile(country, true),
) {
  const api = fakeApiClient({
    ...defaultApiRoutes(),
    'GET /me/personal': profile(country, ssnLast4Provided),
    'GET /me/personal/payout_requirements': requirements(other),
    'PUT /me/personal': put,
  })
  await renderApp('/profile/details', { api })
  await screen.findByTestId('personal-details-form')
  return { api, user: userEvent.setup() }
}

const puts = (api: ReturnType<typeof fakeApiClient>) =>
  api.request.mock.calls.filter(([path, init]) => path === '/me/personal' && init?.method === 'PUT')

describe('US tax identifiers on the profile', () => {
  it('asks a US seller for the SSN’s last four, checks them, and sends only them', async () => {
    const { api, user } = await openPage('us', false, ['ssn_last_4'])
    const section = await screen.findByTestId('tax-identifiers')
    expect(within(section).queryByTestId('id-number-input')).toBeNull()
    await user.type(within(section).getByTestId('ssn-last-4-input'), '12a')
    await user.click(within(section).getByTestId('tax-identifiers-save'))
    expect(await within(section).findByText('Enter exactly 4 digits.')).toBeTruthy()
    expect(puts(api)).toHaveLength(0)

    await user.clear(within(section).getByTestId('ssn-last-4-input'))
    await user.type(within(section).getByTestId('ssn-last-4-input'), '4321')
    await user.click(within(section).getByTestId('tax-identifiers-save'))
    await waitFor(() => expect(puts(api)).toHaveLength(1))
    expect(puts(api)[0]?.[1]?.body).toEqual({ ssn_last_4: '4321' })
  })

  it('asks for the full number when the provider does, and says the last four were given', async () => {
    const { api, user } = await openPage('us', true, ['id_number'])
    const section = await screen.findByTestId('tax-identifiers')
    expect(within(section).queryByTestId('ssn-last-4-input')).toBeNull()
    expect(within(section).getByTestId('id-number-asked')).toBeTruthy()
    await user.type(within(section).getByTestId('id-number-input'), '123-45-6789')
    await user.click(within(section).getByTestId('tax-identifiers-save'))
    await waitFor(() => expect(puts(api)).toHaveLength(1))
    expect(puts(api)[0]?.[1]?.body).toEqual({ id_number: '123456789' })
  })

  it('shows nothing to do once the last four were given', async () => {
    await openPage('us', true, [])
    expect((await screen.findByTestId('tax-identifiers-given')).textContent).toContain('Given')
  })

  it('is not shown to sellers outside the US', async () => {
    await openPage('gb', false, ['identity_document'])
    await screen.findByTestId('payout-requirements-list')
    expect(screen.queryByTestId('tax-identifiers')).toBeNull()
  })
})
