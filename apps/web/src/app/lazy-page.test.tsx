import { render, screen } from '@testing-library/react'
import { TranslationProvider } from '../i18n/react.tsx'
import { Suspense } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createI18n, dictionaryComplete } from '../i18n/i18n.ts'
import { chunkLoadTimeoutMs } from '../lib/constants.ts'
import { ChunkErrorBoundary } from './chunk-error-boundary.tsx'
import { ChunkLoadTimeoutError, lazyPage, withTimeout } from './lazy-page.ts'

describe('route chunks', () => {
  afterEach(() => vi.useRealTimers())

  it('gives a chunk 120 seconds before failing', async () => {
    expect(chunkLoadTimeoutMs).toBe(120_000)
    vi.useFakeTimers()
    const never = new Promise<never>(() => undefined)
    const result = withTimeout(never, chunkLoadTimeoutMs)
    const settled = vi.fn()
    result.catch(settled)
    await vi.advanceTimersByTimeAsync(119_999)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(settled.mock.calls[0]?.[0]).toBeInstanceOf(ChunkLoadTimeoutError)
  })

  it('passes a chunk that arrives in time through', async () => {
    await expect(withTimeout(Promise.resolve('page'), 1000)).resolves.toBe('page')
  })

  it('shows a translated error with a reload button when a chunk fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const i18n = await createI18n('it_it')
    const Broken = lazyPage(() => Promise.reject<{ Page: () => null }>(new Error('chunk 404')), 'Page')
    render(
      <TranslationProvider i18n={i18n}>
        <ChunkErrorBoundary>
          <Suspense fallback={null}>
            <Broken />
          </Suspense>
        </ChunkErrorBoundary>
      </TranslationProvider>,
    )
    expect(await screen.findByRole('heading', { name: 'Impossibile caricare questa pagina' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Ricarica la pagina' })).toBeTruthy()
  })

  it('renders a page whose chunk is already in on its first try, without the Suspense fallback', async () => {
    const i18n = await createI18n('en_gb')
    await dictionaryComplete(i18n)
    const Page = lazyPage(() => Promise.resolve({ Page: () => <p>the page</p> }), 'Page')
    Page.preload()
    // One macrotask: the resolved import's and dictionary's callbacks have run by then.
    await new Promise((resolve) => setTimeout(resolve, 0))
    render(
      <TranslationProvider i18n={i18n}>
        <Suspense fallback={<p>loading</p>}>
          <Page />
        </Suspense>
      </TranslationProvider>,
    )
    expect(screen.getByText('the page')).toBeTruthy()
    expect(screen.queryByText('loading')).toBeNull()
  })
})
