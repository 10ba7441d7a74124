import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderApp } from '../../test/render-app.tsx'

const listing = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'

describe('entering a join code', () => {
  it('says which typed character no code contains, instead of dropping it', async () => {
    const { router } = await renderApp('/join-transaction')
    const input = (await screen.findByTestId('join-code-input')) as HTMLInputElement
    await userEvent.type(input, 'abcO')
    // Kept, so the person sees what they typed and can correct it.
    expect(input.value).toBe('abcO')
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

  it('takes a pasted code with a separator whole', async () => {
    const { router } = await renderApp('/join-transaction')
    const input = (await screen.findByTestId('join-code-input')) as HTMLInputElement
    await userEvent.click(input)
    await userEvent.paste('abcd-2345')
    expect(screen.getByText('The code is complete')).toBeTruthy()
    await userEvent.click(screen.getByTestId('join-continue'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/join-transaction/ABCD2345'))
  })

  it('says that either code works, and names the characters in the interface language', async () => {
    await renderApp('/join-transaction', { locale: 'pl_pl' })
    expect(await screen.findByText(/Zadziała każdy z tych kodów/)).toBeTruthy()
    await userEvent.type(await screen.findByTestId('join-code-input'), 'a1b_')
    expect(screen.getByText('Niedozwolone w kodzie dołączenia: 1 i _')).toBeTruthy()
  })
})

describe('entering a listing code or a link', () => {
  it('opens the listing for its code, typed in capitals with spaces around', async () => {
    const { router } = await renderApp('/join-transaction')
    const input = await screen.findByTestId('join-code-input')
    expect(
      screen.getByText('Enter the 8-character join code or the listing code, or paste the link you were given. Either code works.'),
    ).toBeTruthy()
    await userEvent.click(input)
    await userEvent.paste(`  ${listing.toUpperCase()} `)
    // No false alarm while a listing code's digits are typed.
    expect(input.getAttribute('aria-invalid')).toBe('false')
    await userEvent.click(screen.getByTestId('join-continue'))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/join-transaction/listing/${listing}`))
  })

  it('opens the listing for its short code, typed in lower case (issue 33 item 9)', async () => {
    const { router } = await renderApp('/join-transaction')
    const input = await screen.findByTestId('join-code-input')
    await userEvent.type(input, 'k7m2q-9qhdx')
    expect(input.getAttribute('aria-invalid')).toBe('false')
    await userEvent.click(screen.getByTestId('join-continue'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/join-transaction/listing/K7M2Q-9QHDX'))
  })

  it('opens a pasted listing link, keeping its partner client', async () => {
    const { router } = await renderApp('/join-transaction')
    await userEvent.click(await screen.findByTestId('join-code-input'))
    await userEvent.paste(`https://pactum.example/join-transaction/listing/${listing}?client_id=demo-marketplace`)
    await userEvent.click(screen.getByTestId('join-continue'))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/join-transaction/listing/${listing}`))
    expect(router.state.location.search).toBe('?client_id=demo-marketplace')
  })

  it('opens a pasted join link', async () => {
    const { router } = await renderApp('/join-transaction')
    await userEvent.click(await screen.findByTestId('join-code-input'))
    await userEvent.paste('https://pactum.example/join-transaction/abcd2345')
    await userEvent.click(screen.getByTestId('join-continue'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/join-transaction/ABCD2345'))
  })

  it('says what is wrong with an incomplete listing code, a foreign link or an empty field', async () => {
    const { router } = await renderApp('/join-transaction')
    const input = await screen.findByTestId('join-code-input')
    await userEvent.click(screen.getByTestId('join-continue'))
    expect(await screen.findByText('Enter a join code or a listing code.')).toBeTruthy()

    await userEvent.click(input)
    await userEvent.paste(listing.slice(0, 30))
    await userEvent.click(screen.getByTestId('join-continue'))
    expect(await screen.findByText(/This looks like a listing code, but it is not complete/)).toBeTruthy()
    expect(input.getAttribute('aria-invalid')).toBe('true')

    await userEvent.clear(input)
    await userEvent.paste('https://example.com/transactions/42')
    await userEvent.click(screen.getByTestId('join-continue'))
    expect(await screen.findByText(/This is not a Pactum join or listing link/)).toBeTruthy()
    expect(router.state.location.pathname).toBe('/join-transaction')
  })
})
