import type { Passkey } from '@pactum/contracts/passkeys'
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import type { AccountProfile } from './oidc/accounts.ts'
import {
  listPasskeys,
  type PasskeySummary,
  type RelyingParty,
  registerPasskey,
  registrationOptions,
  removePasskey,
} from './oidc/passkeys.ts'
import type { SignInChange } from './oidc/sign-in-change-notice.ts'
import { embeddedAccountOf, requireCurrentPassword } from './embedded-account.ts'
import type { CurrentUser } from './users.ts'

/**
 * The Account page's passkeys (issue 30): list, add, remove, for people of
 * the embedded sign-in (their account id is the token's subject). Adding one
 * asks for the password first: a browser left signed in must not become a
 * lasting way into the account.
 */
export interface PasskeyDeps {
  db: Kysely<Database>
  clock: Clock
  relyingParty: RelyingParty
  embeddedIssuer: string | null
  /** Tells the owner, by e-mail, that a way into the account came or went. */
  notify: (account: AccountProfile, change: SignInChange) => Promise<void>
}

function embeddedAccount(deps: PasskeyDeps, user: CurrentUser): Promise<AccountProfile> {
  return embeddedAccountOf(
    deps,
    user,
    () => new AppError('passkeys_unavailable', 'Passkeys are for accounts of Pactum’s own sign-in; your sign-in provider offers its own'),
  )
}

export function toPasskeyView(passkey: PasskeySummary): Passkey {
  return {
    id: passkey.id,
    name: passkey.name,
    created: passkey.created.toISOString(),
    last_used: passkey.lastUsed?.toISOString() ?? null,
    backed_up: passkey.backedUp,
  }
}

export async function passkeysOf(deps: PasskeyDeps, user: CurrentUser): Promise<Passkey[]> {
  const account = await embeddedAccount(deps, user)
  return (await listPasskeys(deps.db, account.id)).map(toPasskeyView)
}

export async function beginPasskeyRegistration(deps: PasskeyDeps, user: CurrentUser, currentPassword: string) {
  const account = await embeddedAccount(deps, user)
  await requireCurrentPassword(deps.db, account, currentPassword)
  const options = await registrationOptions(deps.db, deps.relyingParty, account, deps.clock.now())
  if (options === 'too_many') throw new AppError('too_many_passkeys', 'This account has ten passkeys already: remove one first')
  return options
}

export async function finishPasskeyRegistration(
  deps: PasskeyDeps,
  user: CurrentUser,
  input: { name: string; response: RegistrationResponseJSON },
): Promise<Passkey> {
  const account = await embeddedAccount(deps, user)
  const passkey = await registerPasskey(deps.db, deps.relyingParty, account.id, input, deps.clock.now())
  if (!passkey) throw new AppError('passkey_not_verified', 'The passkey could not be verified; start again')
  await deps.notify(account, { kind: 'passkey_added', name: passkey.name })
  return toPasskeyView(passkey)
}

export async function deletePasskey(deps: PasskeyDeps, user: CurrentUser, passkeyId: string): Promise<void> {
  const account = await embeddedAccount(deps, user)
  const removed = await removePasskey(deps.db, account.id, passkeyId)
  if (!removed) throw new AppError('not_found', 'No such passkey')
  await deps.notify(account, { kind: 'passkey_removed', name: removed.name })
}
