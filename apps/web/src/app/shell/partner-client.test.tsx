import type { PartnerClient } from '@pactum/contracts/partner-clients'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { savedClientId } from '../../lib/partner-client/client-id-memory.ts'
import { defaultApiRoutes, fakeApiClient, fakeF2fTransaction } from '../../test/fake-api-client.ts'
import { chargeQuoteRoute } from '../../test/fake-charge-quote.ts'
import { renderApp } from '../../test/render-app.tsx'

const demo: PartnerClient = {
  client_id: 'demo-marketplace',
  name: 'Demo Marketplace',
  background_color: '#1d3557',
  text_color: '#ffffff',
  url: 'https://marketplace.example/',
  routes: ['/transactions', '/create-transaction', '/profile/help/*'],
  mobile_navbar_hidden: true,
  show_seller_confirm_handover: false,
}

const apiWithDemo = (extra: Record<string, unknown> = {}) =>
  fakeApiClient({ ...defaultApiRoutes(), 'GET /clients/demo-marketplace': demo, ...extra })

afterEach(() => window.sessionStorage.clear())

/** happy-dom's own viewport: MUI's media queries read it, so the shell lays out as on a phone. */
const viewport = (window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }).happyDOM
function onAPhone(): void {
  viewport.setViewport({ width: 400, height: 800 })
  onTestFinished(() => viewport.setViewport({ width: 1024, height: 768 }))
}

describe('?client_id= (partner clients, spec §1)', () => {
  it('shows the partner’s top bar in its colours, with the back link to its site', async () => {
    await renderApp('/transactions?client_id=demo-marketplace', { api: apiWithDemo() })
    const bar = await screen.findByTestId('partner-top-bar')
    expect(bar.getAttribute('aria-label')).toBe('Demo Marketplace: partner site')
    expect(getComputedStyle(bar).backgroundColor).toMatch(/^(#1d3557|rgb\(29, 53, 87\))$/)
    const back = screen.getByRole('link', { name: 'Back to Demo Marketplace' })
    expect(back.getAttribute('href')).toBe('https://marketplace.example/')
  })

  it('hides the mobile navbar when the client says so, but keeps the menu in reach from its bar', async () => {
    onAPhone()
    const user = userEvent.setup()
    await renderApp('/transactions?client_id=demo-marketplace', { api: apiWithDemo() })
    const menuButton = await screen.findByTestId('partner-bar-menu-button')
    expect(screen.queryByTestId('open-menu-button')).toBeNull()
    expect(menuButton.getAttribute('aria-expanded')).toBe('false')
    await user.click(menuButton)
    const menu = await screen.findByRole('complementary', { name: 'Menu' })
    expect(document.getElementById(String(menuButton.getAttribute('aria-controls')))?.contains(menu)).toBe(true)
    expect(within(menu).getByTestId('logout-button')).toBeTruthy()
    expect(within(menu).getByTestId('language-picker')).toBeTruthy()
  })

  it('keeps the app’s own mobile navbar for a client that does not hide it', async () => {
    onAPhone()
    await renderApp('/transactions?client_id=demo-marketplace', {
      api: apiWithDemo({ 'GET /clients/demo-marketplace': { ...demo, mobile_navbar_hidden: false } }),
    })
    await screen.findByTestId('partner-top-bar')
    expect(screen.getByTestId('open-menu-button')).toBeTruthy()
    expect(screen.queryByTestId('partner-bar-menu-button')).toBeNull()
  })

  it('sends a route the client does not allow to /transactions', async () => {
    const { router } = await renderApp('/profile/balance?client_id=demo-marketplace', { api: apiWithDemo() })
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions'))
    expect(await screen.findByTestId('partner-top-bar')).toBeTruthy()
  })

  it('shows only the profile tabs the client allows, so none leads back to My transactions (issue 33 item 12)', async () => {
    const routes = ['/transactions', '/profile/help', '/profile/help/*']
    const api = apiWithDemo({ 'GET /clients/demo-marketplace': { ...demo, routes } })
    await renderApp('/profile/help?client_id=demo-marketplace', { api })
    await screen.findByTestId('partner-top-bar')
    const tabs = within(await screen.findByRole('navigation', { name: 'Profile sections' }))
    await waitFor(() => expect(tabs.queryByRole('link', { name: 'Balance and payouts' })).toBeNull())
    expect(tabs.getAllByRole('link').map((link) => link.textContent)).toEqual(['Help'])
  })

  it('keeps the client for the tab: a later page without the parameter (a reload) still has it', async () => {
    const first = await renderApp('/transactions?client_id=demo-marketplace', { api: apiWithDemo() })
    await screen.findByTestId('partner-top-bar')
    first.unmount()
    expect(savedClientId()).toBe('demo-marketplace')
    await renderApp('/transactions', { api: apiWithDemo() })
    expect(await screen.findByTestId('partner-top-bar')).toBeTruthy()
  })

  it('ignores an unknown client: default look, and it is forgotten', async () => {
    const api = apiWithDemo()
    await renderApp('/profile/balance?client_id=no-such-market', { api })
    await waitFor(() => expect(api.request).toHaveBeenCalledWith('/clients/no-such-market'))
    await waitFor(() => expect(savedClientId()).toBeNull())
    expect(screen.queryByTestId('partner-top-bar')).toBeNull()
  })

  it('keeps what the person has done on the page when the client’s look arrives after it', async () => {
    let answerClient: (client: PartnerClient) => void = () => undefined
    const clientAnswered = new Promise<PartnerClient>((resolve) => {
      answerClient = resolve
    })
    const api = apiWithDemo({ 'GET /clients/demo-marketplace': () => clientAnswered })
    await renderApp('/create-transaction?model=f2f&client_id=demo-marketplace', { api })
    const seller = (await screen.findByTestId('role-seller')) as HTMLInputElement
    await userEvent.click(seller)
    expect(seller.checked).toBe(true)

    answerClient(demo)
    await screen.findByTestId('partner-top-bar')
    // The same form, not a new one: the shell takes on the client's theme without remounting the page.
    expect(seller.isConnected).toBe(true)
    expect((screen.getByTestId('role-seller') as HTMLInputElement).checked).toBe(true)
  })

  /** Creates a face-to-face sale through the form at `url` and answers the query the creation was sent with. */
  async function queryOfCreation(url: string) {
    const api = apiWithDemo({
      'GET /p2p/charge': chargeQuoteRoute(190),
      'POST /p2p/me/transactions': () => fakeF2fTransaction({ id: 'tx-5', join_code: 'ABCD2345' }),
    })
    await renderApp(url, { api })
    await userEvent.click(await screen.findByTestId('create-next'))
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€1.90'))
    await userEvent.click(screen.getByTestId('create-submit'))
    await screen.findByTestId('created-join-code')
    const call = api.request.mock.calls.find(([path]) => path === '/p2p/me/transactions')
    return call?.[1]?.query
  }

  it('records the client on a transaction created under it', async () => {
    expect(
      await queryOfCreation('/create-transaction?model=f2f&user=seller&deposit=50&desc=Cargo%20bike&client_id=demo-marketplace'),
    ).toEqual({ client_id: 'demo-marketplace' })
  })

  it('sends no client on a transaction created without one', async () => {
    expect(await queryOfCreation('/create-transaction?model=f2f&user=seller&deposit=50&desc=Cargo%20bike')).toEqual({})
  })
})
