import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderApp } from '../../test/render-app.tsx'

describe('entering a join code', () => {
  it('says which typed character no code contains, instead of dropping it', async () => {
    const { router } = await renderApp('/join-transaction')
    const input = (await screen.findByTestId('join-code-input')) as HTMLInputElement
    await userEvent.type(input, 'abcO')
    // Kept, so the person sees what they typed and can correct it.
    expect(input.value).toBe('ABCO')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('Not allowed in a join code: O')).toBeTruthy()

    await userEvent.type(input, '2345')
    await userEvent.click(screen.getByTestId('join-continue'))
    expect(await screen.findByText('The information you provided is invalid. Please try again.')).toBeTruthy()
    expect(router.state.location.pathname).toBe('/join-transaction')

    // Replacing the look-alike makes it a code again.
    await userEvent.clear(input)
    await userEvent.type(input, 'abcd2345')
    expect(input.getAttribute('aria-invalid')).toBe('false')
    expect(screen.getByText('The code is complete')).toBeTruthy()
    await userEvent.click(screen.getByTestId('join-continue'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/join-transaction/ABCD2345'))
  })

  it('takes a pasted code with a separator whole, and cuts what goes past eight characters', async () => {
    await renderApp('/join-transaction')
    const input = (await screen.findByTestId('join-code-input')) as HTMLInputElement
    await userEvent.click(input)
    await userEvent.paste('abcd-2345')
    expect(input.value).toBe('ABCD2345')
    await userEvent.clear(input)
    await userEvent.paste('ABCD2345XYZ')
    expect(input.value).toBe('ABCD2345')
  })

  it('names the characters in the interface language', async () => {
    await renderApp('/join-transaction', { locale: 'pl_pl' })
    await userEvent.type(await screen.findByTestId('join-code-input'), 'a1b_')
    expect(screen.getByText('Niedozwolone w kodzie dołączenia: 1 i _')).toBeTruthy()
  })
})
