import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { TranslationProvider } from '../../i18n/react.tsx'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { createI18n } from '../../i18n/i18n.ts'
import { readLocaleCookie } from '../../i18n/locale-cookie.ts'
import { fakeAuthService, fakeUser } from '../../test/fake-auth-service.ts'
import { renderApp } from '../../test/render-app.tsx'
import { languagesByOwnName } from '../../test/language-names.ts'
import { MainMenu } from './main-menu.tsx'

describe('sidebar', () => {
  it('welcomes the person by first name', async () => {
    await renderApp('/transactions')
    expect((await screen.findByTestId('welcome-line')).textContent).toBe('Welcome, Anna!')
  })

  it('welcomes a stranger when the token has no first name', async () => {
    await renderApp('/transactions', { auth: fakeAuthService(fakeUser({ profile: { email: 'x@example.com' } })) })
    expect((await screen.findByTestId('welcome-line')).textContent).toBe('Welcome, stranger!')
  })

  it('shows the four menu entries in order and marks the current one', async () => {
    await renderApp('/profile/help/faq')
    const menu = await screen.findByRole('navigation', { name: 'Main menu' })
    const links = within(menu).getAllByRole('link')
    expect(links.map((link) => link.textContent)).toEqual(['Create transaction', 'Join transaction', 'My transactions', 'My profile'])
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/create-transaction',
      '/join-transaction',
      '/transactions',
      '/profile',
    ])
    expect(links.map((link) => link.getAttribute('aria-current'))).toEqual([null, null, null, 'page'])
  })

  it('logs out through the provider', async () => {
    const auth = fakeAuthService()
    await renderApp('/transactions', { auth })
    await userEvent.click(await screen.findByTestId('logout-button'))
    expect(auth.signOut).toHaveBeenCalledTimes(1)
  })

  it('switches to Polish, keeps the choice in the cookie and sets <html lang>', async () => {
    await renderApp('/transactions')
    await userEvent.selectOptions(await screen.findByTestId('language-picker'), 'Polski')
    const menu = await screen.findByRole('navigation', { name: 'Menu główne' })
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Utwórz transakcję', 'Dołącz do transakcji', 'Moje transakcje', 'Mój profil'])
    expect(screen.getByTestId('welcome-line').textContent).toBe('Witaj, Anna!')
    expect(readLocaleCookie(document.cookie)).toBe('pl_pl')
    await waitFor(() => expect(document.documentElement.lang).toBe('pl-PL'))
  })

  it('lists every language by its own name', async () => {
    await renderApp('/transactions')
    const picker = await screen.findByTestId('language-picker')
    expect([...picker.querySelectorAll('option')].map((option) => option.textContent)).toEqual(languagesByOwnName)
  })
})

describe('profile warning', () => {
  async function renderMenu(profileWarning: boolean) {
    const i18n = await createI18n('en_gb')
    render(
      <TranslationProvider i18n={i18n}>
        <MemoryRouter>
          <MainMenu profileWarning={profileWarning} pathname="/" />
        </MemoryRouter>
      </TranslationProvider>,
    )
  }

  it('shows a labelled warning icon on My profile when needed', async () => {
    await renderMenu(true)
    const profile = screen.getByTestId('menu-my-profile')
    expect(within(profile).getByTitle('Your profile needs attention')).toBeTruthy()
  })

  it('shows no warning otherwise', async () => {
    await renderMenu(false)
    expect(screen.queryByTestId('profile-warning')).toBeNull()
  })
})
