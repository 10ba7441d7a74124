/**
 * The shape of a join code (DESIGN §3): 8 characters from an upper-case alphabet
 * without the look-alikes 0/O and 1/I/L, so a code read aloud or copied by hand
 * survives. Browser-safe: the web app validates input with the same rules.
 */
export const joinCodeAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

export const joinCodeLength = 8

/** Upper-cases the input and drops every character a join code cannot contain. */
export function normaliseJoinCodeInput(input: string): string {
  let code = ''
  for (const char of input.toUpperCase()) {
    if (joinCodeAlphabet.includes(char)) code += char
    if (code.length === joinCodeLength) break
  }
  return code
}

export function isJoinCode(value: string): boolean {
  return value.length === joinCodeLength && normaliseJoinCodeInput(value) === value
}

/** Spaces and hyphens people put between the groups of a code they copy or read out ("ABCD-2345"). */
const separators = /[\s-]/gu

/**
 * A code as someone wrote it, with the only liberties the format allows
 * taken back: letter case (DESIGN §3: case-insensitive on input) and
 * separators. Only ASCII letters are upper-cased, so that no other letter
 * turns into alphabet characters ('ß' would become 'SS').
 */
export function tidyJoinCode(input: string): string {
  return input.replace(separators, '').replace(/[a-z]/g, (letter) => letter.toUpperCase())
}

/** The characters of `input`, once tidied, that no join code contains: each once, in the order they first appear. */
export function charactersOutsideJoinCodes(input: string): string[] {
  return [...new Set(Array.from(tidyJoinCode(input)).filter((char) => !joinCodeAlphabet.includes(char)))]
}

export type JoinCodeCheck =
  | { readonly valid: true; readonly code: string }
  | { readonly valid: false; readonly reason: 'characters'; readonly characters: readonly string[] }
  | { readonly valid: false; readonly reason: 'length' }

/**
 * Reads a code given whole (a shared link, a pasted code). Unlike
 * `normaliseJoinCodeInput` it never repairs the code by dropping characters:
 * a code with a character outside the alphabet is not a code (NOTACODE is
 * not NTACDE), whatever its length.
 */
export function checkJoinCode(input: string): JoinCodeCheck {
  return checkCodeOfLength(input, joinCodeLength)
}

/** `checkJoinCode` for any code written in the join codes' alphabet (a listing's code is one, only longer). */
export function checkCodeOfLength(input: string, length: number): JoinCodeCheck {
  const characters = charactersOutsideJoinCodes(input)
  if (characters.length > 0) return { valid: false, reason: 'characters', characters }
  const code = tidyJoinCode(input)
  return code.length === length ? { valid: true, code } : { valid: false, reason: 'length' }
}
