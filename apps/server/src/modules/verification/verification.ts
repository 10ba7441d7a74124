import { createHash } from 'node:crypto'
import {
  type DocumentSide,
  type DocumentVerificationStatus,
  type IdentityDocumentKind,
  identityFileTypes,
  maxIdentityFileBytes,
  type VerificationMethodResponse,
  type VerificationSession,
  type VerificationStatus,
} from '@pactum/contracts/verification'
import type { Kysely } from 'kysely'
import { contentTypeByContent } from '../../adapters/document-store/content-type.ts'
import type { AccountRequirement, AccountVerification, ConnectedAccounts } from '../../adapters/payment-provider/connected-accounts-port.ts'
import type { IdentityVerification, VerificationSession as ProviderSession } from '../../adapters/payment-provider/identity-port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, fieldError } from '../../errors.ts'
import { uuidV7 } from '../../ids.ts'
import { ensureConnectedAccount } from '../profile/payout-account.ts'
import {
  insertIdentityDocumentUpload,
  setVerificationSessionId,
  uploadedSides,
  verificationSessionIdOf,
} from './verification-repository.ts'

/**
 * Identity verification (spec §3 Verification, Legacy document status;
 * DESIGN §4): document uploads checked by content and passed to the
 * payment provider's connected account (`legacy`), or the provider's
 * Identity session (`stripe_identity`), made for the Person of the user's
 * connected account so that the provider attaches the document to the
 * account itself (decision 111). The provider decides; we keep a record of
 * what was uploaded and never serve a file back.
 */
export interface VerificationDeps {
  db: Kysely<Database>
  connectedAccounts: ConnectedAccounts
  identity: IdentityVerification
  clock: Clock
  method: 'legacy' | 'stripe_identity'
}

export interface UploadedFile {
  bytes: Buffer
  fileName: string
}

const methodMessages: Record<VerificationDeps['method'], string> = {
  legacy: 'Upload a photo or scan of your passport, national identity card or driving licence (pdf, png or jpeg, up to 10 MB).',
  stripe_identity: 'Verify your identity with a photo of your identity document and a selfie on our payment partner’s page.',
}

function fileProblem(code: 'validation_failed' | 'unsupported_file_type' | 'file_too_large', message: string): AppError {
  return fieldError('body.file', message, code)
}

/** The file's real type from its first bytes; its name and the browser's header are not trusted. */
async function sniffContentType(bytes: Buffer): Promise<(typeof identityFileTypes)[number]> {
  if (bytes.byteLength === 0) throw fileProblem('validation_failed', 'The file is empty')
  if (bytes.byteLength > maxIdentityFileBytes) throw fileProblem('file_too_large', `The file is larger than ${maxIdentityFileBytes} bytes`)
  const detected = await contentTypeByContent(bytes, identityFileTypes)
  if (!detected) {
    throw fileProblem('unsupported_file_type', 'The file must be a PDF, PNG or JPEG document (checked by its content, not its name)')
  }
  return detected
}

export function verificationMethod(deps: Pick<VerificationDeps, 'method'>): VerificationMethodResponse {
  return { verification_method: deps.method, message: methodMessages[deps.method] }
}

export async function uploadIdentityDocument(
  deps: VerificationDeps,
  userId: string,
  document: IdentityDocumentKind,
  side: DocumentSide,
  file: UploadedFile,
): Promise<DocumentVerificationStatus> {
  // With Identity sessions the session stands for the identity document; an
  // upload would replace what the session attached and the two would disagree.
  // The provider may still ask for an additional document (a proof of address).
  if (deps.method === 'stripe_identity' && document === 'identity_document') {
    throw new AppError('unsupported_combination', 'Your identity is verified through the verification session, not by upload', {
      details: { field: 'document' },
    })
  }
  const contentType = await sniffContentType(file.bytes)
  const account = await ensureConnectedAccount(deps, userId)
  const now = deps.clock.now()
  const uploadId = uuidV7(now)
  const { fileId } = await deps.connectedAccounts.uploadIdentityDocument({
    accountId: account.id,
    document,
    side,
    fileName: file.fileName,
    contentType,
    bytes: file.bytes,
    idempotencyKey: `identity-upload:${uploadId}`,
  })
  await insertIdentityDocumentUpload(deps.db, {
    id: uploadId,
    userId,
    document,
    side,
    providerFileId: fileId,
    contentType,
    sizeBytes: file.bytes.byteLength,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    createdAt: now,
  })
  return documentStatus(deps, userId, document)
}

/** The provider's view of the account, or nothing yet (no account: nothing uploaded, the identity document due). */
async function accountVerification(deps: VerificationDeps, userId: string): Promise<AccountVerification | null> {
  const account = await deps.connectedAccounts.findConnectedAccount(userId)
  return account ? deps.connectedAccounts.getAccountVerification(account.id) : null
}

export async function documentStatus(
  deps: VerificationDeps,
  userId: string,
  document: IdentityDocumentKind,
): Promise<DocumentVerificationStatus> {
  const verification = await accountVerification(deps, userId)
  const submitted = new Set(await uploadedSides(deps.db, userId, document))
  const side = (name: DocumentSide) => {
    const state = verification?.documents[document][name] ?? { status: 'not_uploaded' as const, rejectionReason: null }
    return { status: state.status, previously_submitted: submitted.has(name), rejection_reason: state.rejectionReason }
  }
  const required = verification ? verification.currentlyDue.includes(document) : document === 'identity_document'
  return { document, required, front: side('front'), back: side('back') }
}

/**
 * What the provider still asks for before it pays out (spec §3 Payout
 * requirements); the bank account is left out, as Pactum holds it
 * (`credit_account`). Before the account exists, what a new one in
 * `country` is asked first: the identity document, and a US individual's
 * SSN last four.
 */
export async function providerRequirements(
  deps: VerificationDeps,
  userId: string,
  country: string,
): Promise<Array<Exclude<AccountRequirement, 'external_account'>>> {
  const verification = await accountVerification(deps, userId)
  if (!verification) return country === 'us' ? ['identity_document', 'ssn_last_4'] : ['identity_document']
  return verification.currentlyDue.filter((item) => item !== 'external_account')
}

/** Said of a session made before sessions were made for the account's Person, whose document never reached the account. */
const verifyAgainMessage = 'Verify your identity once more: your earlier verification did not reach your payout account.'

export async function verificationStatus(deps: VerificationDeps, userId: string): Promise<VerificationStatus> {
  const account = await deps.connectedAccounts.findConnectedAccount(userId)
  const stored = await currentSession(deps, userId)
  // A session counts only if made for this account's Person: the provider attaches its document there.
  const session = stored && madeFor(stored, account?.id) ? stored : null
  const verification = account ? await deps.connectedAccounts.getAccountVerification(account.id) : null
  const identityFront = verification?.documents.identity_document.front
  const verified = session?.status === 'verified' || identityFront?.status === 'verified'
  const message =
    session?.status === 'requires_input' && session.lastError
      ? session.lastError
      : identityFront?.status === 'rejected'
        ? (identityFront.rejectionReason ?? '')
        : stored && !session && !verified
          ? verifyAgainMessage
          : ''
  return {
    verification_method: deps.method,
    verified,
    message,
    verification_session_id: session?.id ?? null,
    verification_session_status: session?.status ?? 'not_created',
  }
}

/** Whether the user has passed identity verification (the high-value gate, DESIGN §2). */
export async function isIdentityVerified(deps: VerificationDeps, userId: string): Promise<boolean> {
  return (await verificationStatus(deps, userId)).verified
}

/**
 * The user's open verification session, or a new one when there is none,
 * the last was canceled, or it was not made for the Person of the user's
 * connected account (one made before decision 111: it is replaced, and the
 * user verifies again). The account is created first, as the session names
 * its Person.
 */
export async function openVerificationSession(deps: VerificationDeps, userId: string, returnUrl: string): Promise<VerificationSession> {
  if (deps.method !== 'stripe_identity') {
    throw new AppError('unsupported_combination', 'Verification sessions are not used here: upload your identity document instead')
  }
  const account = await ensureConnectedAccount(deps, userId)
  const existing = await currentSession(deps, userId, returnUrl)
  const session =
    existing && existing.status !== 'canceled' && madeFor(existing, account.id)
      ? existing
      : await deps.identity.createVerificationSession({
          userId,
          returnUrl,
          relatedPerson: { accountId: account.id, personId: await deps.connectedAccounts.personOf(account.id) },
          // A new key per attempt after a canceled or replaced one; the same key for concurrent first calls.
          idempotencyKey: `verification-session:${userId}:${account.id}:${existing?.id ?? 'first'}`,
        })
  if (session.id !== existing?.id) {
    await setVerificationSessionId(deps.db, userId, session.id)
  }
  return {
    verification_session_id: session.id,
    verification_session_status: session.status,
    client_secret: session.clientSecret,
    url: session.url,
    message: session.lastError ?? '',
  }
}

export async function createAccountSession(deps: VerificationDeps, userId: string): Promise<{ client_secret: string }> {
  const account = await ensureConnectedAccount(deps, userId)
  const { clientSecret } = await deps.connectedAccounts.createAccountSession(account.id)
  return { client_secret: clientSecret }
}

/**
 * The provider's own onboarding page, for what only it collects
 * (`provider_onboarding` among the payout requirements); the seller comes
 * back to `returnPath`, also when the link expired before they used it.
 */
export async function openProviderOnboarding(deps: VerificationDeps, userId: string, returnPath: string): Promise<{ url: string }> {
  const account = await ensureConnectedAccount(deps, userId)
  const verification = await deps.connectedAccounts.getAccountVerification(account.id)
  if (!verification.currentlyDue.includes('provider_onboarding')) {
    throw new AppError('onboarding_not_required', 'The payment provider asks for nothing beyond the details on this page')
  }
  return deps.connectedAccounts.createOnboardingLink({ accountId: account.id, returnUrl: returnPath, refreshUrl: returnPath })
}

async function currentSession(deps: VerificationDeps, userId: string, returnUrl = '/profile/details') {
  const sessionId = await verificationSessionIdOf(deps.db, userId)
  return sessionId ? deps.identity.retrieveVerificationSession(sessionId, returnUrl) : null
}

/** The session was made for the Person of this connected account, so the provider attaches its document there. */
function madeFor(session: ProviderSession, accountId: string | undefined): boolean {
  return accountId !== undefined && session.relatedPerson?.accountId === accountId
}
