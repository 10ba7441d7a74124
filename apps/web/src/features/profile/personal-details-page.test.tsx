// Runs isolated: its first test counts the reads of a page whose chunk loads after the shell has
// asked; in a module graph where an earlier file had loaded the chunk, the page mounts with the shell.
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { expectValues } from '../../test/expect-fields.ts'
import { fakePersonalProfile } from '../../test/fake-personal-profile.ts'
import { fieldOfServerPath, isAdult, isWebAddress, validatePersonalDetails, initialValues } from './personal-details-model.ts'
import { expectSavedInPlace } from '../../test/expect-saved-in-place.ts'

const notDue = { status: 'not_due', requirements: { personal: [], other: [] }, details_submitted: true }

async function openPage(routes: Record<string, unknown> = {}) {
  const api = fakeApiClient({
    ...defaultApiRoutes(),
    'GET /me/personal': fakePersonalProfile(),
    'GET /me/personal/payout_requirements': notDue,
    ...routes,
  })
  const view = await renderApp('/profile/details', { api })
  await screen.findByTestId('personal-details-form')
  return { api, view, user: userEvent.setup() }
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement
const putCalls = (api: ReturnType<typeof fakeApiClient>) => api.request.mock.calls.filter(([, init]) => init?.method === 'PUT')
const businessUrlCalls = (api: ReturnType<typeof fakeApiClient>) =>
  api.request.mock.calls.filter(([path]) => path === '/me/personal/business_url')

const expectSaved = () => expectSavedInPlace('Your personal details have been saved.')

describe('personal details form', () => {
  it('reads the profile once: the page mounting just after the shell takes the shell’s answer', async () => {
    const { api } = await openPage()
    const reads = (path: string) =>
      api.request.mock.calls.filter(([called, init]) => called === path && (init?.method ?? 'GET') === 'GET').length
    expect(reads('/me/personal')).toBe(1)
    expect(reads('/me/personal/payout_requirements')).toBe(1)
  })

  it('prefills every field from GET /me/personal', async () => {
    await openPage()
    expectValues({
      'personal-first-name': 'Ada',
      'personal-last-name': 'Lovelace',
      'personal-dob-day': '10',
      'personal-dob-month': '12',
      'personal-dob-year': '1985',
      'personal-business-type': 'individual',
      'personal-phone-country': 'gb',
      'personal-phone': '7700900123',
      'personal-address-line1': '1 High Street',
      'personal-address-city': 'London',
      'personal-address-state': 'Greater London',
      'personal-address-postal-code': 'SW1A 1AA',
      'personal-address-country': 'United Kingdom',
    })
    expect(input('personal-address-country').readOnly).toBe(true)
    expect(screen.getByLabelText(/^County/)).toBe(input('personal-address-state'))
  })

  it('defaults the dial code to the active country when none was saved', async () => {
    await openPage({
      'GET /me/personal': fakePersonalProfile({
        phone: '',
        metadata: { phone_country_code: '' },
        address: { line1: '', line2: '', city: '', state: '', postal_code: '', country_code: 'se' },
      }),
    })
    expect(input('personal-phone-country').value).toBe('se')
    expect(screen.getByRole('option', { name: 'Sweden (+46)' })).toBeTruthy()
  })

  it('shows required-field errors next to the fields, with the snackbar, and sends nothing', async () => {
    const { api, user } = await openPage()
    await user.clear(input('personal-first-name'))
    await user.clear(input('personal-address-city'))
    await user.clear(input('personal-phone'))
    await user.click(screen.getByTestId('personal-details-save'))

    const firstName = input('personal-first-name')
    expect(firstName.getAttribute('aria-invalid')).toBe('true')
    const describedBy = firstName.getAttribute('aria-describedby')
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe('This field is required.')
    expect(input('personal-address-city').getAttribute('aria-invalid')).toBe('true')
    expect(input('personal-phone').getAttribute('aria-invalid')).toBe('true')
    expect(input('personal-last-name').getAttribute('aria-invalid')).toBe('false')
    expect(await screen.findByTestId('invalid-form-snackbar')).toBeTruthy()
    expect(putCalls(api)).toHaveLength(0)

    // The error follows the field as it is corrected.
    await user.type(firstName, 'Ada')
    expect(firstName.getAttribute('aria-invalid')).toBe('false')
  })

  it('takes the person to the first refused field and names it, rather than a message that names nothing (issue 33 item 4)', async () => {
    const { user } = await openPage({ 'GET /me/personal': fakePersonalProfile({ dob: null }) })
    await user.click(screen.getByTestId('personal-details-save'))
    await waitFor(() => expect(document.activeElement).toBe(input('personal-dob-day')))
    expect((await screen.findByTestId('invalid-form-snackbar')).textContent).toContain('Please check “Date of birth”.')
  })

  it('refuses someone under 18 before calling the server', async () => {
    const { api, user } = await openPage()
    await user.selectOptions(input('personal-dob-year'), String(new Date().getFullYear() - 10))
    await user.click(screen.getByTestId('personal-details-save'))
    expect(screen.getByTestId('personal-dob-error').textContent).toBe('You must be at least 18 years old.')
    expect(input('personal-dob-day').getAttribute('aria-invalid')).toBe('true')
    expect(input('personal-dob-day').getAttribute('aria-describedby')).toBe(screen.getByTestId('personal-dob-error').id)
    expect(putCalls(api)).toHaveLength(0)
  })

  it('offers the US states as a list, and other countries a field named after their division', async () => {
    const us = fakePersonalProfile({
      phone: '+12025550123',
      metadata: { phone_country_code: 'us' },
      address: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', postal_code: '73301', country_code: 'us' },
    })
    const first = await openPage({ 'GET /me/personal': us })
    const state = input('personal-address-state')
    expect(state.tagName).toBe('SELECT')
    expect(state.value).toBe('TX')
    expect(within(state).getByRole('option', { name: 'California' })).toBeTruthy()
    expect(screen.getByLabelText(/^State/)).toBe(state)
    first.view.unmount()

    const jp = fakePersonalProfile({
      address: { line1: '1-1', line2: '', city: 'Tokyo', state: '', postal_code: '100-0001', country_code: 'jp' },
    })
    const second = await openPage({ 'GET /me/personal': jp })
    expect(input('personal-address-state').tagName).toBe('INPUT')
    expect(screen.getByLabelText(/^Prefecture/)).toBe(input('personal-address-state'))
    // Japan requires its prefecture.
    await second.user.click(screen.getByTestId('personal-details-save'))
    expect(input('personal-address-state').getAttribute('aria-invalid')).toBe('true')
    second.view.unmount()

    const hk = fakePersonalProfile({
      address: { line1: '1 Queen’s Road', line2: '', city: 'Hong Kong', state: '', postal_code: '', country_code: 'hk' },
    })
    const third = await openPage({ 'GET /me/personal': hk })
    expect(screen.queryByTestId('personal-address-postal-code')).toBeNull()
    expect(screen.getByLabelText(/^Region/)).toBe(input('personal-address-state'))
    third.view.unmount()

    const lu = fakePersonalProfile({
      address: { line1: '1 Rue', line2: '', city: 'Luxembourg', state: '', postal_code: 'L-1111', country_code: 'lu' },
    })
    await openPage({ 'GET /me/personal': lu })
    expect(screen.queryByTestId('personal-address-state')).toBeNull()
  })

  it('saves with exactly the expected body, confirms it in place and refetches the profile and requirements', async () => {
    let saved = false
    const { api, user } = await openPage({
      'PUT /me/personal': () => {
        saved = true
        return fakePersonalProfile()
      },
      'GET /me/personal/payout_requirements': () =>
        saved ? notDue : { ...notDue, status: 'due', requirements: { personal: ['phone'], other: [] } },
    })
    expect(await screen.findByTestId('payout-requirement-phone')).toBeTruthy()
    await user.clear(input('personal-first-name'))
    await user.type(input('personal-first-name'), '  Augusta ')
    await user.type(input('personal-address-line2'), 'Flat 2')
    await user.selectOptions(input('personal-business-type'), 'company')
    await user.selectOptions(input('personal-phone-country'), 'ie')
    await user.clear(input('personal-phone'))
    await user.type(input('personal-phone'), '085 123 4567')
    await user.click(screen.getByTestId('personal-details-save'))

    await expectSaved()
    expect(putCalls(api)).toHaveLength(1)
    expect(putCalls(api)[0]).toEqual([
      '/me/personal',
      {
        method: 'PUT',
        body: {
          business_type: 'company',
          name: { first: 'Augusta', last: 'Lovelace' },
          dob: { day: 10, month: 12, year: 1985 },
          phone: '+353851234567',
          metadata: { phone_country_code: 'ie' },
          address: {
            line1: '1 High Street',
            line2: 'Flat 2',
            city: 'London',
            state: 'Greater London',
            postal_code: 'SW1A 1AA',
            country_code: 'gb',
          },
        },
      },
    ])
    await waitFor(() =>
      expect(api.request.mock.calls.filter(([path, init]) => path === '/me/personal' && !init?.method).length).toBeGreaterThanOrEqual(2),
    )
    expect(await screen.findByTestId('payout-requirements-none')).toBeTruthy()
  })

  it('puts a server validation error on the field it names', async () => {
    const { user } = await openPage({
      'PUT /me/personal': () => {
        throw apiError(400, 'validation_failed', 'Invalid request', {
          fields: [{ field: 'body.address.postal_code', message: 'Invalid postal code' }],
        })
      },
    })
    await user.click(screen.getByTestId('personal-details-save'))
    await waitFor(() => expect(input('personal-address-postal-code').getAttribute('aria-invalid')).toBe('true'))
    expect(input('personal-first-name').getAttribute('aria-invalid')).toBe('false')
    expect(screen.getByText('Please check this value.')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Success!' })).toBeNull()
  })

  it('shows a retry when the profile cannot be loaded', async () => {
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /me/personal': () => {
        throw apiError(500, 'internal_error')
      },
      'GET /me/personal/payout_requirements': notDue,
    })
    await renderApp('/profile/details', { api })
    // A 5xx is retried once before the error shows.
    expect(await screen.findByTestId('personal-details-error', {}, { timeout: 4000 })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
  })
})

describe('business website', () => {
  const company = () => fakePersonalProfile({ business_type: 'company', business_url: 'https://shop.example/ada' })
  const saveRoutes = (saved: string[] = []) => ({
    'PUT /me/personal': () => fakePersonalProfile(),
    'POST /me/personal/business_url': ({ body }: { body?: unknown }) => {
      const { url } = body as { url: string }
      saved.push(url)
      return { business_url: url }
    },
  })

  it('is asked of companies only, as an optional web address with a hint', async () => {
    const { user } = await openPage()
    expect(screen.queryByTestId('personal-business-url')).toBeNull()
    await user.selectOptions(input('personal-business-type'), 'company')
    const field = screen.getByLabelText(/^Business website/) as HTMLInputElement
    expect(field).toBe(input('personal-business-url'))
    expect(field.type).toBe('url')
    expect(field.required).toBe(false)
    const describedBy = field.getAttribute('aria-describedby')
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe(
      'The page where you sell, e.g. your shop or profile. Our payment partner asks companies for it.',
    )
  })

  it('refuses an address that is not http or https before calling the server', async () => {
    const { api, user } = await openPage()
    await user.selectOptions(input('personal-business-type'), 'company')
    await user.type(input('personal-business-url'), 'ftp://shop.example')
    await user.click(screen.getByTestId('personal-details-save'))
    expect(input('personal-business-url').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('Enter a web address starting with http:// or https://.')).toBeTruthy()
    expect(await screen.findByTestId('invalid-form-snackbar')).toBeTruthy()
    expect(putCalls(api)).toHaveLength(0)
    expect(businessUrlCalls(api)).toHaveLength(0)

    // The error follows the field as it is corrected.
    await user.clear(input('personal-business-url'))
    await user.type(input('personal-business-url'), 'http://s.example')
    expect(input('personal-business-url').getAttribute('aria-invalid')).toBe('false')
  })

  it('saves a new address with its own call after the details', async () => {
    const saved: string[] = []
    const { api, user } = await openPage(saveRoutes(saved))
    await user.selectOptions(input('personal-business-type'), 'company')
    await user.type(input('personal-business-url'), '  https://shop.example/ada ')
    await user.click(screen.getByTestId('personal-details-save'))

    await expectSaved()
    expect(saved).toEqual(['https://shop.example/ada'])
    expect(businessUrlCalls(api)[0]).toEqual(['/me/personal/business_url', { method: 'POST', body: { url: 'https://shop.example/ada' } }])
    const order = api.request.mock.calls.map(([path, init]) => `${init?.method ?? 'GET'} ${path}`)
    expect(order.indexOf('PUT /me/personal')).toBeLessThan(order.indexOf('POST /me/personal/business_url'))
    // Nothing of it goes into the PUT body.
    expect(putCalls(api)[0]?.[1]?.body).not.toHaveProperty('business_url')
  })

  it('prefills the saved address and does not send it again unchanged, nor an empty one', async () => {
    const first = await openPage({ ...saveRoutes(), 'GET /me/personal': company() })
    expect(input('personal-business-url').value).toBe('https://shop.example/ada')
    await first.user.click(screen.getByTestId('personal-details-save'))
    await expectSaved()
    expect(putCalls(first.api)).toHaveLength(1)
    expect(businessUrlCalls(first.api)).toHaveLength(0)
    first.view.unmount()

    const second = await openPage({ ...saveRoutes(), 'GET /me/personal': company() })
    await second.user.clear(input('personal-business-url'))
    await second.user.click(screen.getByTestId('personal-details-save'))
    await expectSaved()
    expect(businessUrlCalls(second.api)).toHaveLength(0)
  })

  it('does not send the address of someone selling as an individual', async () => {
    const { api, user } = await openPage({ ...saveRoutes(), 'GET /me/personal': company() })
    await user.clear(input('personal-business-url'))
    await user.type(input('personal-business-url'), 'https://other.example')
    await user.selectOptions(input('personal-business-type'), 'individual')
    await user.click(screen.getByTestId('personal-details-save'))
    await expectSaved()
    expect(businessUrlCalls(api)).toHaveLength(0)
  })

  it('puts the server refusing the address on the field', async () => {
    const { user } = await openPage({
      'PUT /me/personal': () => fakePersonalProfile(),
      'POST /me/personal/business_url': () => {
        throw apiError(400, 'validation_failed', 'Invalid request', {
          fields: [{ field: 'body.url', message: 'A web address starting with http:// or https://' }],
        })
      },
    })
    await user.selectOptions(input('personal-business-type'), 'company')
    await user.type(input('personal-business-url'), 'https://shop.example')
    await user.click(screen.getByTestId('personal-details-save'))
    await waitFor(() => expect(input('personal-business-url').getAttribute('aria-invalid')).toBe('true'))
    expect(screen.getByText('Please check this value.')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Success!' })).toBeNull()
  })
})

describe('payout requirements card', () => {
  it('lists what is still due, translated, with a link to the bank details', async () => {
    await openPage({
      'GET /me/personal/payout_requirements': {
        status: 'due',
        requirements: { personal: ['dob', 'address'], other: ['credit_account', 'identity_document'] },
        details_submitted: false,
      },
    })
    const card = await screen.findByTestId('payout-requirements-list')
    const items = within(card)
      .getAllByRole('listitem')
      .map((item) => item.textContent)
    expect(items).toEqual(['Your date of birth', 'Your address', 'A bank account for payouts', 'An identity document'])
    expect(screen.getByTestId('payout-requirements-bank-link').getAttribute('href')).toBe('/profile/payment/bank-details')
  })

  it('tells someone who only buys that nothing is needed yet, without warning icons (issue 33 item 10)', async () => {
    await openPage({
      'GET /me/personal/payout_requirements': {
        status: 'due',
        requirements: { personal: [], other: ['credit_account'] },
        details_submitted: true,
        sells: false,
      },
    })
    expect((await screen.findByTestId('payout-requirements-intro')).textContent).toBe(
      'Nothing is needed while you only buy. Before we can pay you for a first sale, we will need:',
    )
    expect(screen.queryByTestId('profile-warning')).toBeNull()
  })

  it('says when nothing is due', async () => {
    await openPage()
    expect(await screen.findByTestId('payout-requirements-none')).toBeTruthy()
    expect(screen.queryByTestId('payout-requirements-bank-link')).toBeNull()
    expect(screen.queryByTestId('payout-requirements-provider-onboarding')).toBeNull()
  })

  const providerDue = { status: 'due', requirements: { personal: [], other: ['provider_onboarding'] }, details_submitted: true }

  it('sends the seller to the payment provider’s page for what only it collects, back to this page', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {})
    const { api, user } = await openPage({
      'GET /me/personal/payout_requirements': providerDue,
      'POST /me/account_onboarding_link': { url: 'https://connect.example.test/setup/e/acct_1/abc' },
    })
    expect((await screen.findByTestId('payout-requirement-provider_onboarding')).textContent).toBe(
      'Details our payment provider asks for on its own page',
    )
    await user.click(screen.getByRole('button', { name: 'Continue with our payment provider' }))

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://connect.example.test/setup/e/acct_1/abc'))
    expect(api.request.mock.calls.filter(([path]) => path === '/me/account_onboarding_link')).toEqual([
      ['/me/account_onboarding_link', { method: 'POST', body: { return_url: '/profile/details' } }],
    ])
    // Busy until the browser has left.
    expect(screen.getByTestId('payout-requirements-provider-onboarding').hasAttribute('disabled')).toBe(true)
    assign.mockRestore()
  })

  it('says why when the link cannot be made, and lets the seller try again', async () => {
    const { user } = await openPage({
      'GET /me/personal/payout_requirements': providerDue,
      'POST /me/account_onboarding_link': () => {
        throw apiError(409, 'onboarding_not_required')
      },
    })
    await user.click(await screen.findByTestId('payout-requirements-provider-onboarding'))
    expect((await screen.findByTestId('payout-requirements-provider-error')).textContent).toBe(
      'Our payment provider needs nothing more from you.',
    )
    expect(screen.getByTestId('payout-requirements-provider-onboarding').hasAttribute('disabled')).toBe(false)
  })
})

describe('personal details rules', () => {
  it('counts 18 years to the day', () => {
    const today = new Date(2026, 5, 15)
    expect(isAdult(15, 6, 2008, today)).toBe(true)
    expect(isAdult(16, 6, 2008, today)).toBe(false)
  })

  it('rejects impossible dates and unknown US states', () => {
    const values = initialValues(fakePersonalProfile(), 'us')
    const errors = validatePersonalDetails({ ...values, dobDay: '31', dobMonth: '2', state: 'ZZ' }, 'us')
    expect(errors.dob).toBe('invalidDate')
    expect(errors.state).toBe('invalidState')
  })

  it('takes only absolute http and https addresses as the business website', () => {
    expect(isWebAddress('https://shop.example/ada?tab=items')).toBe(true)
    expect(isWebAddress('HTTP://shop.example')).toBe(true)
    expect(isWebAddress('shop.example')).toBe(false)
    expect(isWebAddress('https:shop.example')).toBe(false)
    expect(isWebAddress('ftp://shop.example')).toBe(false)
    expect(isWebAddress('javascript://alert(1)')).toBe(false)
    expect(isWebAddress('https://')).toBe(false)
    const values = { ...initialValues(fakePersonalProfile(), 'gb'), businessUrl: 'nope' }
    expect(validatePersonalDetails(values, 'gb').businessUrl).toBeUndefined()
    expect(validatePersonalDetails({ ...values, businessType: 'company' }, 'gb').businessUrl).toBe('invalidUrl')
    expect(
      validatePersonalDetails({ ...values, businessType: 'company', businessUrl: `https://a.example/${'x'.repeat(2000)}` }, 'gb')
        .businessUrl,
    ).toBe('tooLong')
  })

  it('maps server paths to form fields', () => {
    expect(fieldOfServerPath('body.dob')).toBe('dob')
    expect(fieldOfServerPath('body.dob.year')).toBe('dob')
    expect(fieldOfServerPath('body.name.last')).toBe('lastName')
    expect(fieldOfServerPath('body.metadata.phone_country_code')).toBe('phone')
    expect(fieldOfServerPath('body.address.state')).toBe('state')
    expect(fieldOfServerPath('body.url')).toBe('businessUrl')
    expect(fieldOfServerPath('body.unknown')).toBeUndefined()
  })
})
