import { screen } from '@testing-library/react'
import { expect } from 'vitest'

/** A small save is confirmed by a polite status toast, never the full-screen 'Success!' (issue 33 item 4). */
export async function expectSavedInPlace(message: string): Promise<void> {
  const saved = await screen.findByText(message)
  expect(saved.closest('[role="status"]')).not.toBeNull()
  expect(screen.queryByRole('heading', { name: 'Success!' })).toBeNull()
}
