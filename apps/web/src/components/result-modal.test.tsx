import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { TranslationProvider } from '../i18n/react.tsx'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createI18n } from '../i18n/i18n.ts'
import { MessageDialogProvider, useMessageDialog } from './message-dialog.tsx'
import { ResultModalProvider, useResultModal } from './result-modal.tsx'

function Triggers() {
  const result = useResultModal()
  const dialog = useMessageDialog()
  return (
    <>
      <button type="button" onClick={() => result.showSuccess('Saved.')}>
        success
      </button>
      <button type="button" onClick={() => result.showError('Could not save.', { autoCloseMs: 1000 })}>
        error
      </button>
      <button type="button" onClick={() => void dialog.show({ title: 'Heads up', message: 'Read this.' })}>
        message
      </button>
    </>
  )
}

async function setup(locale: 'en_gb' | 'fi_fi' = 'en_gb') {
  const i18n = await createI18n(locale)
  render(
    <TranslationProvider i18n={i18n}>
      <ResultModalProvider>
        <MessageDialogProvider>
          <Triggers />
        </MessageDialogProvider>
      </ResultModalProvider>
    </TranslationProvider>,
  )
}

describe('result modal', () => {
  afterEach(() => vi.useRealTimers())

  it("shows 'Success!' full screen until closed", async () => {
    await setup()
    await userEvent.click(screen.getByRole('button', { name: 'success' }))
    const dialog = await screen.findByRole('dialog', { name: 'Success!' })
    expect(dialog.textContent).toContain('Saved.')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it("shows 'Error!' and can close itself", async () => {
    await setup()
    // shouldAdvanceTime lets MUI's exit transition, driven by happy-dom's own frames, finish.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    act(() => screen.getByRole('button', { name: 'error' }).click())
    expect(screen.getByRole('dialog', { name: 'Error!' })).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(900))
    expect(screen.queryByRole('dialog', { name: 'Error!' })).not.toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(100))
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('translates the headings', async () => {
    await setup('fi_fi')
    await userEvent.click(screen.getByRole('button', { name: 'success' }))
    expect(await screen.findByRole('dialog', { name: 'Onnistui!' })).toBeTruthy()
  })
})

describe('message dialog', () => {
  it('shows a title, a message and an OK button', async () => {
    await setup()
    await userEvent.click(screen.getByRole('button', { name: 'message' }))
    const dialog = await screen.findByRole('dialog', { name: 'Heads up' })
    expect(dialog.textContent).toContain('Read this.')
    await userEvent.click(screen.getByRole('button', { name: 'OK' }))
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
