import { act, render, screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { createI18n } from '../i18n/i18n.ts'
import { TranslationProvider } from '../i18n/react.tsx'
import { ResultModalProvider, useResultModal } from './result-modal.tsx'

// The dialog's chunk arrives only when the test lets it, as over a slow line.
let arrive!: () => void
const arrived = new Promise<void>((resolve) => {
  arrive = resolve
})
vi.mock('./result-dialog.tsx', async (importOriginal) => {
  await arrived
  return importOriginal()
})

function Trigger() {
  const result = useResultModal()
  return (
    <button type="button" onClick={() => result.showError('Could not save.', { autoCloseMs: 1000 })}>
      error
    </button>
  )
}

afterEach(() => vi.useRealTimers())

it('counts a self-closing message from when it is on screen, not from when its chunk was asked for', async () => {
  const i18n = await createI18n('en_gb')
  render(
    <TranslationProvider i18n={i18n}>
      <ResultModalProvider>
        <Trigger />
      </ResultModalProvider>
    </TranslationProvider>,
  )
  // shouldAdvanceTime lets MUI's transitions, driven by happy-dom's own frames, finish.
  vi.useFakeTimers({ shouldAdvanceTime: true })
  act(() => screen.getByRole('button', { name: 'error' }).click())
  await act(() => vi.advanceTimersByTimeAsync(2000))
  expect(screen.queryByRole('dialog')).toBeNull()

  arrive()
  expect(await screen.findByRole('dialog', { name: 'Error!' })).toBeTruthy()
  await act(() => vi.advanceTimersByTimeAsync(900))
  expect(screen.queryByRole('dialog', { name: 'Error!' })).not.toBeNull()
  await act(() => vi.advanceTimersByTimeAsync(100))
  await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
})
