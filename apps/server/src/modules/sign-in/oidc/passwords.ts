import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * Password hashing with scrypt from node:crypto (no native addons: the repo
 * pins its own Node binary). Stored as `scrypt$N$r$p$salt$hash`, base64, so
 * that the cost can be raised later and old hashes still verify.
 */
export interface PasswordCost {
  N: number
  r: number
  p: number
}

/**
 * What every new hash costs: about 70 ms of a core on a CI machine. The
 * server takes it from its configuration (`signIn.passwordCost`), which
 * always holds this; only the test app gives its accounts a cheaper one.
 */
export const passwordCost: PasswordCost = { N: 2 ** 15, r: 8, p: 1 }
const keyLength = 32
const saltLength = 16

function derive(password: string, salt: Buffer, options: PasswordCost): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; the default maxmem (32 MiB) is exactly that at N=2^15, r=8, so leave headroom.
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

export async function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  const salt = randomBytes(saltLength)
  const hash = await derive(password, salt, cost)
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), hash.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const options = { N: Number(n), r: Number(r), p: Number(p) }
  if (!Object.values(options).every((value) => Number.isSafeInteger(value) && value > 0)) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await derive(password, Buffer.from(salt, 'base64'), options)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * Compared against when the e-mail has no account, so that an unknown address
 * takes as long as a wrong password (no account enumeration by timing): made
 * at the cost the accounts' hashes are made at, once per cost.
 */
const dummyHashes = new Map<string, Promise<string>>()
export function dummyPasswordHash(cost: PasswordCost): Promise<string> {
  const key = `${cost.N}$${cost.r}$${cost.p}`
  let hash = dummyHashes.get(key)
  if (!hash) {
    hash = hashPassword(randomBytes(18).toString('base64'), cost)
    dummyHashes.set(key, hash)
  }
  return hash
}
