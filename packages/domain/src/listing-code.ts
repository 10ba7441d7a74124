import { checkCodeOfLength, type JoinCodeCheck, joinCodeAlphabet } from './join-code-format.ts'
import { generateCodeOfLength } from './join-code.ts'

/**
 * A listing's short code (issue 33 item 9, docs/decisions/102-invitation-landing-and-listing-codes.md):
 * what a buyer types instead of the listing's UUID. The join codes' alphabet
 * and reading (case, spaces and hyphens forgiven; any other character makes
 * it no code), but 10 characters instead of 8, so that a code alone says
 * which it is and the join form never has to ask the server twice. Shown in
 * two groups of five ("K7M2Q-9QHDX"), stored without the hyphen.
 * Browser-safe: the web app reads input with the same rules.
 */
export const listingCodeLength = 10

export const listingCodeAlphabet = joinCodeAlphabet

export function checkListingCode(input: string): JoinCodeCheck {
  return checkCodeOfLength(input, listingCodeLength)
}

/** Two groups of five, as people read and type it. */
export function formatListingCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`
}

/** A fresh code, every character uniform over the alphabet (see `generateJoinCode`). */
export function generateListingCode(randomBytes: (n: number) => Uint8Array): string {
  return generateCodeOfLength(randomBytes, listingCodeLength)
}
