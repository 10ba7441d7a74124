import { joinCodeAlphabet, joinCodeLength } from './join-code-format.ts'

/**
 * A fresh join code (DESIGN §3). Join codes are guessable secrets, so every
 * character must be uniform over the alphabet: bytes at or above the largest
 * multiple of the alphabet size are thrown away instead of folded with a
 * modulo, which would make the first characters of the alphabet likelier.
 *
 * `randomBytes` is injected so the domain stays free of I/O; callers pass a
 * crypto.getRandomValues-based source, e.g.
 * `(n) => crypto.getRandomValues(new Uint8Array(n))`.
 */
export function generateJoinCode(randomBytes: (n: number) => Uint8Array): string {
  return generateCodeOfLength(randomBytes, joinCodeLength)
}

/** `generateJoinCode` for a code of another length in the same alphabet (a listing's code). */
export function generateCodeOfLength(randomBytes: (n: number) => Uint8Array, length: number): string {
  const size = joinCodeAlphabet.length
  const limit = 256 - (256 % size)
  let code = ''
  // 31 of 256 byte values are rejected, so a batch of 2× the remaining length
  // nearly always finishes in one round; the bound only stops a broken source
  // (all bytes ≥ limit) from spinning forever.
  for (let round = 0; round < 64 && code.length < length; round += 1) {
    const bytes = randomBytes((length - code.length) * 2)
    for (const byte of bytes) {
      if (byte >= limit) continue
      code += joinCodeAlphabet.charAt(byte % size)
      if (code.length === length) break
    }
  }
  if (code.length !== length) throw new Error('the random source kept returning unusable bytes')
  return code
}
