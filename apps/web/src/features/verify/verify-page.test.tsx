import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { PublicVerification } from '@pactum/contracts/verify'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { fakeAuthService } from '../../test/fake-auth-service.ts'
import { renderApp } from '../../test/render-app.tsx'

const code = 'Xq3hV0cM2l9w1PnF7yTzAg'
const held: PublicVerification = {
  state: 'held',
  amount: 10_340,
  currency: 'eur',
  created: '2026-11-22T10:00:00.000Z',
  paid: '2026-11-22T11:00:00.000Z',
  released: null,
  refunded: null,
  buyer: { first_name: 'Bea', email: 'b***@e***.com' },
  seller: { first_name: 'Sam', email: 's***@e***.com' },
  partner_name: null,
}

async function open(answer: unknown, path = `/verify/${code}`) {
  const auth = fakeAuthService(null)
  const api = fakeApiClient({ [`GET /verify/${code}`]: answer })
  await renderApp(path, { auth, api })
  return { auth, api }
}

describe('the public verification page (issue 35 item 4)', () => {
  it('says Pactum holds the money, lists the facts, and needs nobody signed in', async () => {
    const { auth } = await open(held)
    await screen.findByTestId('verify-facts')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pactum holds €103.40 for this sale')
    expect(screen.getByTestId('verify-state').textContent).toBe('Money held by Pactum')
    expect(screen.getByTestId('verify-amount').textContent).toBe('€103.40')
    expect(screen.getByTestId('verify-seller').textContent).toBe('Sam (s***@e***.com)')
    expect(screen.getByTestId('verify-buyer').textContent).toBe('Bea (b***@e***.com)')
    expect(screen.queryByTestId('verify-partner')).toBeNull()
    expect(screen.getByTestId('verify-facts').querySelector('dl')).not.toBeNull()
    expect(screen.getByRole('heading', { name: 'How to tell a fake escrow site' })).toBeTruthy()
    expect(screen.getByTestId('verify-fake-site-note').textContent).toContain(`This page is on ${window.location.host}.`)
    expect(auth.signIn).not.toHaveBeenCalled()
  })

  it('says when the money was released, and names the marketplace', async () => {
    await open({ ...held, state: 'released', released: '2026-11-30T12:00:00.000Z', partner_name: 'Market partner' })
    await screen.findByTestId('verify-facts')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Pactum held €103.40 for this sale and released it to the seller on 30 Nov 2026',
    )
    expect(screen.getByTestId('verify-partner').textContent).toBe('Market partner')
  })

  it('says plainly that Pactum holds nothing before the buyer paid', async () => {
    await open({ ...held, state: 'awaiting_payment', paid: null, buyer: null })
    await screen.findByTestId('verify-facts')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Not paid yet: Pactum holds nothing for this sale yet')
    expect(screen.getByTestId('verify-buyer').textContent).toBe('Not joined yet')
    expect(screen.queryByTestId('verify-paid')).toBeNull()
  })

  it('shows that it is checking while the answer is on its way', async () => {
    await open(() => new Promise(() => undefined))
    expect((await screen.findByTestId('verify-loading')).textContent).toContain('Checking this sale with Pactum…')
  })

  it('warns that an unknown link is no proof of escrow, without asking the server about a malformed one', async () => {
    await open(() => {
      throw apiError(404, 'not_found')
    })
    expect((await screen.findByTestId('verify-not-found')).textContent).toContain('do not pay')
    const { api } = await open(held, '/verify/not-a-code')
    expect((await screen.findAllByTestId('verify-not-found')).length).toBeGreaterThan(0)
    expect(api.request).not.toHaveBeenCalled()
  })

  it('offers another try, by keyboard too, when the check failed', async () => {
    let calls = 0
    await open(() => {
      calls += 1
      if (calls === 1) throw apiError(429, 'rate_limited')
      return held
    })
    await screen.findByTestId('verify-error')
    const retry = screen.getByRole('button', { name: 'Try again' })
    retry.focus()
    await userEvent.keyboard('{Enter}')
    await screen.findByTestId('verify-facts')
    await waitFor(() => expect(calls).toBe(2))
  })
})
