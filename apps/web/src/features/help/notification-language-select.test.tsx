import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { languagesByOwnName } from '../../test/language-names.ts'

const supported = ['en_gb', 'fi_fi', 'hr_hr', 'it_it', 'ms_my', 'pl_pl', 'sv_se'].map((language_code) => ({ language_code }))

function languageApi(save: (body: unknown) => unknown = () => undefined) {
  return fakeApiClient({
    ...defaultApiRoutes(),
    'GET /me/notification_language': { language_code: 'en_gb' },
    'GET /supported_notification_languages': supported,
    'POST /me/notification_language': ({ body }: { body?: unknown }) => save(body),
  })
}

const select = () => screen.findByRole('combobox', { name: 'Language of e-mails' }) as Promise<HTMLSelectElement>

describe('account page: language of e-mails', () => {
  it('shows the current language and lists the supported ones by their own names', async () => {
    await renderApp('/profile/help/account', { api: languageApi() })
    const picker = await select()
    expect(picker.value).toBe('en_gb')
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(languagesByOwnName)
    expect(within(picker).getByRole('option', { name: 'Polski' }).getAttribute('lang')).toBe('pl')
  })

  it('saves a new choice, disabled meanwhile, then says Saved', async () => {
    const user = userEvent.setup()
    let answer: (value: unknown) => void = () => undefined
    const api = languageApi(() => new Promise((resolve) => (answer = resolve)))
    await renderApp('/profile/help/account', { api })
    const picker = await select()
    await user.selectOptions(picker, 'pl_pl')
    await waitFor(() => expect(picker.disabled).toBe(true))
    expect(picker.value).toBe('pl_pl')
    expect(api.request).toHaveBeenCalledWith('/me/notification_language', { method: 'POST', body: { language_code: 'pl_pl' } })

    answer({ language_code: 'pl_pl' })
    // A polite status (a toast with role="status"), not an alert: nothing went wrong.
    await waitFor(async () => expect((await screen.findAllByRole('status')).map((node) => node.textContent)).toContain('Saved'))
    expect(picker.disabled).toBe(false)
    expect(picker.value).toBe('pl_pl')
    expect(document.activeElement).toBe(picker)
  })

  it('says so when saving fails and shows the stored language again', async () => {
    const user = userEvent.setup()
    const api = languageApi(() => {
      throw apiError(500, 'internal_error')
    })
    await renderApp('/profile/help/account', { api })
    const picker = await select()
    await user.selectOptions(picker, 'sv_se')
    expect((await screen.findByRole('alert')).textContent).toContain('The language of e-mails could not be saved.')
    await waitFor(() => expect(picker.value).toBe('en_gb'))
    expect(picker.disabled).toBe(false)
  })

  it('offers a retry when the language cannot be read', async () => {
    const user = userEvent.setup()
    let failing = true
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /me/notification_language': () => {
        if (failing) throw apiError(500, 'internal_error')
        return { language_code: 'it_it' }
      },
      'GET /supported_notification_languages': supported,
    })
    await renderApp('/profile/help/account', { api })
    const error = await screen.findByTestId('notification-language-error')
    expect(within(error).getByText('The language of e-mails could not be loaded.')).toBeTruthy()
    failing = false
    await user.click(within(error).getByRole('button', { name: 'Try again' }))
    expect((await select()).value).toBe('it_it')
  })
})
