import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const verifyUrl = 'http://localhost:3000/verify/Xq3hV0cM2l9w1PnF7yTzAg'

describe('the verification card on the status page (decision 114)', () => {
  it('links to the sale’s public verification page and shows it as a QR code, loaded apart', async () => {
    const transaction = fakeTransaction({ status: 'paid', verify_url: verifyUrl })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': transaction }) })
    const link = await screen.findByTestId('verify-link')
    expect(link.getAttribute('href')).toBe(verifyUrl)
    expect(screen.getByRole('heading', { name: 'Check this escrow on Pactum' })).toBeTruthy()
    const qr = await screen.findByTestId('verify-qr')
    expect(qr.getAttribute('alt')).toBe("QR code of this sale's verification page on Pactum")
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/)
  })

  it('is on a face-to-face sale’s page too', async () => {
    const transaction = fakeF2fTransaction({ status: 'deposit_paid', verify_url: verifyUrl })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': transaction }) })
    expect((await screen.findByTestId('verify-link')).getAttribute('href')).toBe(verifyUrl)
  })
})
