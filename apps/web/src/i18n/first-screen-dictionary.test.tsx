import { f2fStatuses } from '@pactum/domain/transactions/f2f-state'
import { onlineStatuses } from '@pactum/domain/transactions/online-state'
import type { Translator as I18n } from './translator.ts'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { defaultApiRoutes, fakeApiClient, fakeTransactionSummary } from '../test/fake-api-client.ts'
import { renderApp } from '../test/render-app.tsx'
import { createI18n, dictionaryComplete } from './i18n.ts'

/** An instance as the app starts it (only the first part of the dictionary), recording every key it lacks. */
async function firstPartOnly(locale: 'en_gb' | 'pl_pl') {
  const i18n = await createI18n(locale, { rest: 'later' })
  const missing: string[] = []
  i18n.onMissingKey((_language, key) => void missing.push(key))
  return { i18n, missing }
}

function restRequested(i18n: I18n): boolean {
  // dictionaryComplete starts the download on its first call, so ask the store instead.
  return i18n.exists('transactionStatus.title')
}

const every = [
  ...onlineStatuses.map((status, index) => fakeTransactionSummary({ id: `tx-${index}`, status, role: index % 2 ? 'buyer' : 'seller' })),
  ...f2fStatuses.map((status, index) => fakeTransactionSummary({ id: `f2f-${index}`, type: 'f2f', status })),
]

describe('the first screen with only the first part of the dictionary (issue 13)', () => {
  it.each(['en_gb', 'pl_pl'] as const)('%s: My transactions and the shell use no key outside it', async (locale) => {
    const { i18n, missing } = await firstPartOnly(locale)
    const api = fakeApiClient({ ...defaultApiRoutes(), 'GET /me/transactions': every })
    await renderApp('/transactions', { i18n, api })
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy()
    await screen.findAllByText(every[0]!.description)
    expect(missing).toEqual([])
    expect(restRequested(i18n)).toBe(false)
  })

  it('the empty list and a failed load use no key outside it either', async () => {
    const { i18n, missing } = await firstPartOnly('en_gb')
    await renderApp('/transactions', { i18n })
    expect(await screen.findByRole('heading', { level: 1, name: 'My transactions' })).toBeTruthy()
    expect(missing).toEqual([])
  })

  it('another page waits for the rest of the dictionary, then renders translated', async () => {
    const { i18n, missing } = await firstPartOnly('pl_pl')
    await renderApp('/profile/help/faq', { i18n })
    await dictionaryComplete(i18n)
    expect(await screen.findByRole('heading', { level: 1, name: i18n.t('help.faq.title') })).toBeTruthy()
    expect(restRequested(i18n)).toBe(true)
    expect(missing).toEqual([])
  })

  it('a language chosen in the picker arrives whole', async () => {
    const { i18n, missing } = await firstPartOnly('en_gb')
    await renderApp('/transactions', { i18n })
    await userEvent.selectOptions(await screen.findByTestId('language-picker'), 'fi_fi')
    await waitFor(() => expect(i18n.language).toBe('fi-FI'))
    expect(await screen.findByRole('heading', { level: 1, name: i18n.t('transactions.title') })).toBeTruthy()
    expect(i18n.t('transactions.title')).not.toBe('My transactions')
    expect(restRequested(i18n)).toBe(true)
    expect(missing).toEqual([])
  })
})
