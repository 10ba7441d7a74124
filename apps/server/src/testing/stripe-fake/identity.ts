import { randomBytes } from 'node:crypto'
import { individualPersonOf, verifyPersonByIdentity } from './connect.ts'
import type { Json, StripeStore } from './store.ts'
import { type FormObject, invalidRequest, missing, parseMultipart, record, StripeFakeError, text } from './wire.ts'

/*
 * Files and Stripe Identity in the Stripe fake: uploads of identity
 * documents (kept per account, as Stripe keeps them), and verification
 * sessions that the user finishes on Stripe's hosted page, with the
 * report that names the document's files. A session made for a connected
 * account's Person (`related_person`) verifies that person's document when
 * it is verified; the document images themselves are not served to the
 * platform's secret key.
 */

/**
 * The images Stripe Identity collected are files of purpose
 * `identity_document_downloadable` ("Image of a document collected by
 * Stripe Identity", API reference: the File object), which only restricted
 * keys may read, and those only for verifications of the last 48 hours
 * ("Access verification results": document images are among the sensitive
 * results a secret key does not read). The fake has no restricted keys:
 * reading the bytes is refused with Stripe's permission status, 403. The
 * message is the fake's own.
 */
function identityImageRefused(fileId: string): StripeFakeError {
  return new StripeFakeError(403, {
    type: 'invalid_request_error',
    message: `The file '${fileId}' is an image collected by Stripe Identity: only a restricted key may read it, within 48 hours of the verification.`,
  })
}

/** `related_person[account]` and `related_person[person]` (VerificationSessionCreateParams.RelatedPerson), checked as Stripe documents them. */
function relatedPersonOf(store: StripeStore, params: FormObject): { account: string; person: string } | null {
  if (params.related_person === undefined) return null
  const given = record(params.related_person)
  const account = text(given.account)
  const person = text(given.person)
  // "account: If provided, the person parameter is also required and must be associated with the account."
  if (!person)
    throw invalidRequest('Missing required param: related_person[person].', { code: 'parameter_missing', param: 'related_person[person]' })
  // A person without an account would be one of the platform's own; the fake has none.
  if (!account) throw invalidRequest(`No such person: '${person}'`, { code: 'resource_missing', param: 'related_person[person]' })
  const found = store.accounts.get(account)
  if (!found) throw invalidRequest(`No such account: '${account}'`, { code: 'resource_missing', param: 'related_person[account]' })
  if (individualPersonOf(found) !== person) {
    throw invalidRequest(`The person '${person}' is not associated with the account '${account}'.`, { param: 'related_person[person]' })
  }
  return { account, person }
}

export function fakeIdentity(store: StripeStore) {
  const { files, sessions, reports, newId, seconds, emit, later } = store

  function storeFile(purpose: string, filename: string, type: string, data: Buffer, account: string | undefined): Json {
    const object: Json = {
      id: newId('file'),
      object: 'file',
      purpose,
      filename,
      type,
      size: data.byteLength,
      created: seconds(),
      ...fileLinks(),
    }
    files.set(object.id as string, { object, data, account })
    return object
  }

  /** Nothing here expires or has a title; an uploaded file is not served back (no URL). */
  function fileLinks(url: string | null = null): Json {
    return { expires_at: null, title: null, url }
  }

  /** An image Stripe Identity collected, on the platform: its File object can be read, its bytes not (`identityImageRefused`). */
  function storeIdentityImage(filename: string, type: string): Json {
    const id = newId('file')
    // Its URL is the fake's own address, standing for files.stripe.com (which serves it to restricted keys only).
    const object: Json = {
      id,
      object: 'file',
      purpose: 'identity_document_downloadable',
      filename,
      type,
      size: 25,
      created: seconds(),
      ...fileLinks(`${store.url}/v1/files/${id}/contents`),
    }
    files.set(id, {
      object,
      account: undefined,
      get data(): Buffer {
        throw identityImageRefused(id)
      },
    })
    return object
  }

  /** `POST /v1/files`: a multipart upload, checked as Stripe checks identity documents and dispute evidence (at most 5 MB). */
  function upload(body: Buffer, contentType: string, account: string | undefined): Json {
    const parts = parseMultipart(body, contentType)
    const purpose = parts.find((part) => part.name === 'purpose')?.data.toString('utf8')
    const file = parts.find((part) => part.name === 'file')
    if (!purpose || !['identity_document', 'additional_verification', 'dispute_evidence'].includes(purpose))
      throw invalidRequest('Invalid purpose', { param: 'purpose' })
    if (!file || file.data.byteLength === 0) throw invalidRequest('A file is required.', { param: 'file' })
    if (purpose === 'dispute_evidence' && file.data.byteLength > 5_000_000)
      throw invalidRequest('Dispute evidence is at most 5 MB.', { param: 'file' })
    if (file.data.byteLength > 10_000_000) throw invalidRequest('The file is larger than 10 MB.', { param: 'file' })
    const type =
      file.contentType === 'application/pdf'
        ? 'pdf'
        : file.contentType === 'image/png'
          ? 'png'
          : file.contentType === 'image/jpeg'
            ? 'jpg'
            : undefined
    if (!type) throw invalidRequest('Identity documents must be pdf, png or jpeg.', { param: 'file' })
    return storeFile(purpose, file.fileName ?? 'upload', type, file.data, account)
  }

  function identityRoute(
    method: string,
    kind: string,
    action: string | undefined,
    params: FormObject,
    expand: string[],
  ): { body: unknown } {
    if (kind !== 'verification_sessions' && kind !== 'verification_reports')
      throw new StripeFakeError(404, { type: 'invalid_request_error', message: 'Unrecognized request URL.' })
    if (kind === 'verification_reports') {
      const report = reports.get(action ?? '')
      if (!report) throw missing('verification report', action ?? '')
      return { body: report }
    }
    if (method === 'POST' && !action) {
      if (text(params.type) !== 'document') throw invalidRequest('Pactum asks for document checks', { param: 'type' })
      if (params.return_url !== undefined && !/^https?:\/\//.test(text(params.return_url) ?? ''))
        throw invalidRequest('Not a valid URL', { code: 'url_invalid', param: 'return_url' })
      const related = relatedPersonOf(store, params)
      const sessionId = newId('vs')
      const session: Json = {
        id: sessionId,
        object: 'identity.verification_session',
        type: 'document',
        status: 'requires_input',
        client_secret: `${sessionId}_secret_${randomBytes(12).toString('hex')}`,
        url: `${store.url}/identity/${sessionId}`,
        metadata: record(params.metadata),
        client_reference_id: null,
        livemode: false,
        options: {},
        redaction: null,
        related_customer: null,
        related_customer_account: null,
        last_error: null,
        last_verification_report: null,
        // Optional in the SDK's VerificationSession (`related_person?: RelatedPerson`, never null): absent when not given.
        ...(related ? { related_person: related } : {}),
        created: seconds(),
      }
      sessions.set(sessionId, session)
      return { body: session }
    }
    const session = sessions.get(action ?? '')
    if (!session) throw missing('verification session', action ?? '')
    const reportId = session.last_verification_report as string | null
    return {
      body:
        expand.includes('last_verification_report') && reportId ? { ...session, last_verification_report: reports.get(reportId) } : session,
    }
  }

  /** The user finishes Stripe Identity's hosted page; Stripe's answer comes later. */
  function completeIdentity(sessionId: string, outcome: 'verified' | 'failed'): void {
    const session = sessions.get(sessionId)
    if (!session) throw new Error(`no session ${sessionId}`)
    session.status = 'processing'
    later(() => {
      if (outcome === 'failed') {
        Object.assign(session, {
          status: 'requires_input',
          last_error: { code: 'document_unverified_other', reason: 'The document could not be verified.' },
        })
        return
      }
      const file = storeIdentityImage('passport.png', 'png')
      const report: Json = {
        id: newId('vr'),
        object: 'identity.verification_report',
        client_reference_id: null,
        created: seconds(),
        livemode: false,
        type: 'document',
        verification_session: session.id,
        // What the document showed is not used by Pactum; Stripe fills it in.
        document: {
          status: 'verified',
          files: [file.id],
          type: 'passport',
          address: null,
          error: null,
          first_name: null,
          last_name: null,
          issued_date: null,
          issuing_country: null,
        },
      }
      reports.set(report.id as string, report)
      Object.assign(session, { status: 'verified', url: null, last_error: null, last_verification_report: report.id })
      const related = session.related_person as { account: string; person: string } | undefined
      if (related) verifyPersonByIdentity(store, related, [file.id as string])
      emit('identity.verification_session.verified', session)
    })
  }

  return { upload, identityRoute, completeIdentity }
}
