import { randomUUID } from 'node:crypto'
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import { deletePasskey, insertPasskey, listPasskeysOf, lockPasskey, passkeyCredentialsOf, recordPasskeyUse } from './passkeys-repository.ts'
import { deleteChallengesExpiredBefore, insertChallenge, lockOpenChallenges, markChallengesUsed } from './webauthn-challenges-repository.ts'

/**
 * Passkeys (WebAuthn) for the embedded sign-in, through @simplewebauthn/server:
 * an account registers one from its Account page (after giving its password),
 * then signs in with it instead of the password. The relying party is the
 * public address's host; only a page of that origin can use the keys.
 *
 * Each ceremony signs a challenge kept in the database for five minutes and
 * used once, so a ceremony can end in another server process than it began,
 * and a captured answer cannot be replayed.
 */

export interface RelyingParty {
  /** The host of PUBLIC_URL (WebAuthn's RP ID). */
  id: string
  /** PUBLIC_URL's origin: the only page that may answer. */
  origin: string
  name: string
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl)
  return { id: url.hostname, origin: url.origin, name: 'Pactum' }
}

const challengeMs = 5 * 60_000
/** More would be a sign of something wrong; each is a way into the account. */
export const maxPasskeysPerAccount = 10

export interface PasskeySummary {
  id: string
  name: string
  created: Date
  lastUsed: Date | null
  backedUp: boolean
}

export async function listPasskeys(db: Kysely<Database>, accountId: string): Promise<PasskeySummary[]> {
  const rows = await listPasskeysOf(db, accountId)
  return rows.map((row) => ({ id: row.id, name: row.name, created: row.created_at, lastUsed: row.last_used_at, backedUp: row.backed_up }))
}

/** The passkey removed (its name, for the owner's notice), or undefined when the account has none by that id. */
export async function removePasskey(db: Kysely<Database>, accountId: string, passkeyId: string): Promise<{ name: string } | undefined> {
  return deletePasskey(db, accountId, passkeyId)
}

/** The options the browser's `navigator.credentials.create` needs, for a signed-in account. */
export async function registrationOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  account: { id: string; email: string; firstName: string; lastName: string },
  now: Date,
): Promise<PublicKeyCredentialCreationOptionsJSON | 'too_many'> {
  const existing = await passkeyCredentialsOf(db, account.id)
  if (existing.length >= maxPasskeysPerAccount) return 'too_many'
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.email,
    userID: new TextEncoder().encode(account.id),
    userDisplayName: `${account.firstName} ${account.lastName}`.trim() || account.email,
    attestationType: 'none',
    // A discoverable credential: the sign-in page asks for a passkey without asking who you are.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: JSON.parse(row.transports) as string[] })),
  })
  await saveChallenge(db, { purpose: 'register', accountId: account.id, interactionUid: null, challenge: options.challenge }, now)
  return options
}

/** Checks the browser's answer against the account's open challenge and keeps the new public key. */
export async function registerPasskey(
  db: Kysely<Database>,
  rp: RelyingParty,
  accountId: string,
  input: { response: RegistrationResponseJSON; name: string },
  now: Date,
): Promise<PasskeySummary | null> {
  return db.transaction().execute(async (trx) => {
    const open = await lockOpenChallenges(trx, 'register', { accountId }, now)
    if (open.length === 0) return null
    const verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: (challenge) => open.some((row) => row.challenge === challenge),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    }).catch(() => undefined)
    if (!verification?.verified) return null
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo
    await useChallenges(trx, open, now)
    const inserted = await insertPasskey(trx, {
      id: credential.id,
      account_id: accountId,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      device_type: credentialDeviceType,
      backed_up: credentialBackedUp,
      name: input.name,
      created_at: now,
    })
    if (!inserted) return null
    return {
      id: inserted.id,
      name: inserted.name,
      created: inserted.created_at,
      lastUsed: inserted.last_used_at,
      backedUp: inserted.backed_up,
    }
  })
}

/**
 * Options for the sign-in page's "Sign in with a passkey", tied to its
 * interaction; for the second step after a password, limited to that
 * account's passkeys (`accountId`), so the browser offers only those.
 */
export async function signInOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  interactionUid: string,
  now: Date,
  accountId?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowCredentials = accountId
    ? (await passkeyCredentialsOf(db, accountId)).map((row) => ({
        id: row.id,
        transports: JSON.parse(row.transports) as WebAuthnCredential['transports'],
      }))
    : undefined
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'preferred',
    ...(allowCredentials ? { allowCredentials } : {}),
  })
  await saveChallenge(db, { purpose: 'authenticate', accountId: null, interactionUid, challenge: options.challenge }, now)
  return options
}

/** Whose passkey answered, and whether the authenticator checked the person (PIN, fingerprint, face) too. */
export interface PasskeySignIn {
  accountId: string
  userVerified: boolean
}

/**
 * The account whose passkey signed this interaction's challenge, or null.
 * The signature counter must move forward when the authenticator keeps one
 * (a cloned key would fall behind).
 */
export async function verifyPasskeySignIn(
  db: Kysely<Database>,
  rp: RelyingParty,
  interactionUid: string,
  response: AuthenticationResponseJSON,
  now: Date,
): Promise<PasskeySignIn | null> {
  return db.transaction().execute(async (trx) => {
    const open = await lockOpenChallenges(trx, 'authenticate', { interactionUid }, now)
    if (open.length === 0) return null
    const passkey = await lockPasskey(trx, response.id)
    if (!passkey) return null
    const credential: WebAuthnCredential = {
      id: passkey.id,
      publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
      counter: Number(passkey.counter),
      transports: JSON.parse(passkey.transports) as WebAuthnCredential['transports'],
    }
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => open.some((row) => row.challenge === challenge),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential,
      requireUserVerification: false,
    }).catch(() => undefined)
    if (!verification?.verified) return null
    await useChallenges(trx, open, now)
    await recordPasskeyUse(trx, passkey.id, verification.authenticationInfo.newCounter, now)
    return { accountId: passkey.account_id, userVerified: verification.authenticationInfo.userVerified }
  })
}

async function saveChallenge(
  db: Kysely<Database>,
  challenge: { purpose: 'register' | 'authenticate'; accountId: string | null; interactionUid: string | null; challenge: string },
  now: Date,
): Promise<void> {
  // Housekeeping: challenges nobody answered in time.
  await deleteChallengesExpiredBefore(db, new Date(now.getTime() - challengeMs))
  await insertChallenge(db, {
    id: randomUUID(),
    purpose: challenge.purpose,
    account_id: challenge.accountId,
    interaction_uid: challenge.interactionUid,
    challenge: challenge.challenge,
    expires_at: new Date(now.getTime() + challengeMs),
  })
}

/** A ceremony's answer uses up every challenge open for the same owner: one answer per page. */
async function useChallenges(db: Kysely<Database>, open: { id: string }[], now: Date): Promise<void> {
  await markChallengesUsed(
    db,
    open.map((row) => row.id),
    now,
  )
}
