import type { TotpSetup, TotpStatusView } from '@pactum/contracts/totp'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, fieldError } from '../../errors.ts'
import type { AccountProfile } from './oidc/accounts.ts'
import type { SignInChange } from './oidc/sign-in-change-notice.ts'
import { beginTotpEnrolment, confirmTotpEnrolment, removeTotp, totpStatus } from './oidc/totp.ts'
import { findTotpFactor } from './oidc/totp-repository.ts'
import { embeddedAccountOf, requireCurrentPassword } from './embedded-account.ts'
import type { CurrentUser } from './users.ts'

/**
 * The Account page's authenticator app (issue 30), for people of the
 * embedded sign-in. Setting one up and removing it both ask for the
 * password: a browser left signed in must neither add a factor its owner
 * cannot answer nor take one away.
 */
export interface TotpDeps {
  db: Kysely<Database>
  clock: Clock
  embeddedIssuer: string | null
  /** Tells the owner, by e-mail, that a way into the account came or went. */
  notify: (account: AccountProfile, change: SignInChange) => Promise<void>
}

function embeddedAccount(deps: TotpDeps, user: CurrentUser): Promise<AccountProfile> {
  return embeddedAccountOf(
    deps,
    user,
    () =>
      new AppError(
        'second_factor_unavailable',
        'Second factors are for accounts of Pactum’s own sign-in; your sign-in provider offers its own',
      ),
  )
}

export async function totpStatusOf(deps: TotpDeps, user: CurrentUser): Promise<TotpStatusView> {
  const account = await embeddedAccount(deps, user)
  const status = await totpStatus(deps.db, account.id)
  return { enabled: status.enabled, since: status.enabled ? status.since.toISOString() : null }
}

export async function beginTotpSetup(deps: TotpDeps, user: CurrentUser, currentPassword: string): Promise<TotpSetup> {
  const account = await embeddedAccount(deps, user)
  await requireCurrentPassword(deps.db, account, currentPassword)
  const enrolment = await beginTotpEnrolment(deps.db, account, deps.clock.now())
  if (enrolment === 'already_enabled') throw new AppError('totp_already_enabled', 'An authenticator app is set up already: remove it first')
  return { secret: enrolment.secret, otpauth_uri: enrolment.uri, qr_code: enrolment.qrDataUrl }
}

export async function confirmTotpSetup(deps: TotpDeps, user: CurrentUser, code: string): Promise<TotpStatusView> {
  const account = await embeddedAccount(deps, user)
  const before = await totpStatus(deps.db, account.id)
  if (before.enabled) throw new AppError('totp_not_pending', 'The authenticator app is set up already')
  if (!(await confirmTotpEnrolment(deps.db, account, code, deps.clock.now()))) {
    const started = await findTotpFactor(deps.db, account.id)
    if (!started) throw new AppError('totp_not_pending', 'No authenticator app is being set up: start again')
    throw fieldError('body.code', 'not the code your app shows now', 'incorrect_code')
  }
  await deps.notify(account, { kind: 'totp_added' })
  return totpStatusOf(deps, user)
}

export async function removeTotpOf(deps: TotpDeps, user: CurrentUser, currentPassword: string): Promise<void> {
  const account = await embeddedAccount(deps, user)
  await requireCurrentPassword(deps.db, account, currentPassword)
  if (await removeTotp(deps.db, account.id)) await deps.notify(account, { kind: 'totp_removed' })
}
