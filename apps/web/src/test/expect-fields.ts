import { screen } from '@testing-library/react'
import { expect } from 'vitest'

/** Each element, found by its test id, reads exactly the text given for it; a failure names the test id. */
export function expectTexts(texts: Record<string, string>) {
  for (const [testId, text] of Object.entries(texts)) expect(screen.getByTestId(testId).textContent, testId).toBe(text)
}

/** Each form control, found by its test id, holds exactly the value given for it; a failure names the test id. */
export function expectValues(values: Record<string, string>) {
  for (const [testId, value] of Object.entries(values)) expect((screen.getByTestId(testId) as HTMLInputElement).value, testId).toBe(value)
}
