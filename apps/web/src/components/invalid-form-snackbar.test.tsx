import { act, render, screen, waitFor } from '@testing-library/react'
import { TranslationProvider } from '../i18n/react.tsx'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createI18n } from '../i18n/i18n.ts'
import { InvalidFormSnackbarProvider, useInvalidFormSnackbar } from './invalid-form-snackbar.tsx'

function Trigger({ message, durationMs }: { message?: string; durationMs?: number }) {
  const snackbar = useInvalidFormSnackbar()
  return (
    <button type="button" onClick={() => snackbar.show(message, durationMs)}>
      submit
    </button>
  )
}

async function setup(props: { message?: string; durationMs?: number } = {}) {
  const i18n = await createI18n('en_gb')
  render(
    <TranslationProvider i18n={i18n}>
      <InvalidFormSnackbarProvider>
        <Trigger {...props} />
      </InvalidFormSnackbarProvider>
    </TranslationProvider>,
  )
  // shouldAdvanceTime lets MUI's exit transition, driven by happy-dom's own frames, finish.
  vi.useFakeTimers({ shouldAdvanceTime: true })
  act(() => screen.getByRole('button', { name: 'submit' }).click())
}

describe('invalid-form snackbar', () => {
  afterEach(() => vi.useRealTimers())

  it('is still open just before 4 seconds', async () => {
    await setup()
    await act(() => vi.advanceTimersByTimeAsync(3900))
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByTestId('invalid-form-snackbar')).not.toBeNull()
  })

  it('shows the default message and closes itself after 4 seconds', async () => {
    await setup()
    expect(screen.getByText('The information you provided is invalid. Please try again.')).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(3900))
    expect(screen.queryByTestId('invalid-form-snackbar')).not.toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(100))
    await waitFor(() => expect(screen.queryByTestId('invalid-form-snackbar')).toBeNull())
  })

  it('takes a custom message and duration (spec §5: 1 s on the country form)', async () => {
    await setup({ message: 'Pick a country', durationMs: 1000 })
    expect(screen.getByText('Pick a country')).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(900))
    expect(screen.queryByText('Pick a country')).not.toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(100))
    await waitFor(() => expect(screen.queryByText('Pick a country')).toBeNull())
  })
})
