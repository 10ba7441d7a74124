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
