import type { PasswordCost } from '../modules/sign-in/oidc/passwords.ts'

/**
 * What the test apps' accounts' passwords cost to hash: next to nothing. At
 * the real cost (passwords.ts) each hash took about 70 ms of a core, and the
 * server tests hash 322 times in a run, on both engines in CI (about 47 s of
 * the run's CPU, 2026-12-08). Stored hashes name their cost, so these verify
 * as cheaply, and so does the dummy hash of a sign-in with an unknown
 * address; the server's own configuration always holds the real cost, and
 * passwords.test.ts and the browser tests hash at it.
 */
export const testPasswordCost: PasswordCost = { N: 16, r: 1, p: 1 }
