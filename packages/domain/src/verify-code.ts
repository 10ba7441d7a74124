/**
 * The code of a transaction's public verification page, `/verify/<code>`
 * (issue 35 item 4, docs/decisions/114-escrow-you-can-check.md): 16 random
 * bytes (128 bits) written as 22 characters of URL-safe base64 without
 * padding. Unlike a join code it is never typed, only followed or scanned,
 * so it can be long enough that guessing one is hopeless.
 */
export const verifyCodeBytes = 16
export const verifyCodeLength = 22

const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** `randomBytes` is injected so the domain stays free of I/O (as for join codes). */
export function generateVerifyCode(randomBytes: (n: number) => Uint8Array): string {
  const bytes = randomBytes(verifyCodeBytes)
  if (bytes.length !== verifyCodeBytes) throw new Error('the random source returned the wrong number of bytes')
  let bits = 0
  let value = 0
  let code = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 6) {
      bits -= 6
      code += base64url.charAt((value >> bits) & 63)
    }
    value &= (1 << bits) - 1
  }
  // 128 bits leave 2 over: the last character carries them in its high bits, as base64 does.
  if (bits > 0) code += base64url.charAt((value << (6 - bits)) & 63)
  return code
}

const verifyCodePattern = /^[A-Za-z0-9_-]{22}$/

/** Whether `value` can be a verification code at all: anything else is not looked up. */
export function isVerifyCode(value: string): boolean {
  return verifyCodePattern.test(value)
}
