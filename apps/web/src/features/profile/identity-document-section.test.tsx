import type {
  DocumentSideState,
  DocumentVerificationStatus,
  IdentityDocumentKind,
  VerificationStatus,
} from '@pactum/contracts/verification'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const notUploaded: DocumentSideState = { status: 'not_uploaded', previously_submitted: false, rejection_reason: null }

function documentStatus(
  document: IdentityDocumentKind,
  overrides: Partial<Omit<DocumentVerificationStatus, 'document'>> = {},
): DocumentVerificationStatus {
  return { document, required: document === 'identity_document', front: notUploaded, back: notUploaded, ...overrides }
}

const profile = {
  details_submitted: true,
  business_type: 'individual',
  name: { first: 'Ada', last: 'Lovelace' },
  address: { line1: '1 High Street', line2: '', city: 'London', state: '', postal_code: 'SW1A 1AA', country_code: 'gb' },
  metadata: { phone_country_code: 'gb' },
  phone: '+447700900123',
  dob: { day: 10, month: 12, year: 1985 },
  tos_acceptance: { unix_timestamp: 1_790_000_000 },
}
const due = { status: 'due', requirements: { personal: [], other: ['identity_document'] }, details_submitted: true }

async function openPage(routes: Record<string, unknown>) {
  const api = fakeApiClient({
    ...defaultApiRoutes(),
    'GET /me/personal': profile,
    'GET /me/personal/payout_requirements': due,
    ...routes,
  })
  await renderApp('/profile/details', { api })
  await screen.findByTestId('identity-document')
  return { api, user: userEvent.setup() }
}

function legacyRoutes(identity = documentStatus('identity_document'), additional = documentStatus('additional_identity_document')) {
  return {
    'GET /me/verification_method': { verification_method: 'legacy', message: 'Upload your identity document' },
    'GET /me/personal/identity_document/verification_status': identity,
    'GET /me/personal/additional_identity_document/verification_status': additional,
  }
}

const callsTo = (api: ReturnType<typeof fakeApiClient>, path: string, method = 'GET') =>
  api.request.mock.calls.filter(([p, init]) => p === path && (init?.method ?? 'GET') === method)

function pngFile(size = 2048, name = 'passport.png'): File {
  const file = new File([new Uint8Array(16)], name, { type: 'image/png' })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

const slot = (document: IdentityDocumentKind, side: 'front' | 'back') => screen.findByTestId(`identity-slot-${document}-${side}`)

describe('identity verification with documents (legacy)', () => {
  it('shows each side of both documents with its status, rejection reason and history', async () => {
    await openPage(
      legacyRoutes(
        documentStatus('identity_document', {
          front: { status: 'verified', previously_submitted: true, rejection_reason: null },
          back: { status: 'rejected', previously_submitted: true, rejection_reason: 'The image is too blurry' },
        }),
      ),
    )
    const section = screen.getByRole('region', { name: 'Identity verification' })
    expect(section.id).toBe('identity-document')

    const front = await slot('identity_document', 'front')
    expect(within(front).getByTestId('identity-slot-identity_document-front-status').textContent).toBe('Verified')
    expect(within(front).queryByRole('button')).toBeNull()

    const back = await slot('identity_document', 'back')
    expect(within(back).getByTestId('identity-slot-identity_document-back-status').textContent).toBe('Rejected')
    expect(within(back).getByText('Reason: The image is too blurry')).toBeTruthy()
    expect(within(back).getByText('You have submitted a file for this side before.')).toBeTruthy()
    expect(within(back).getByRole('button', { name: 'Upload a new file' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Identity document Back' })).toBe(back)
    expect(screen.getByTestId('identity-identity_document-required').textContent).toBe('Needed for payouts')

    const additional = await slot('additional_identity_document', 'front')
    expect(within(additional).getByTestId('identity-slot-additional_identity_document-front-status').textContent).toBe('Not uploaded')
    expect(within(additional).getByRole('button', { name: 'Upload file' })).toBeTruthy()
    expect(screen.getByTestId('identity-additional_identity_document-not-required')).toBeTruthy()
  })

  it('refuses a file over 10,000,000 bytes before sending anything', async () => {
    const { api, user } = await openPage(legacyRoutes())
    const front = await slot('identity_document', 'front')
    await user.upload(within(front).getByTestId('identity-slot-identity_document-front-input'), pngFile(10_000_001, 'huge.png'))

    expect(within(front).getByRole('alert').textContent).toBe('huge.png is larger than 10 MB. Choose a smaller file.')
    expect(callsTo(api, '/me/personal/identity_document', 'POST')).toHaveLength(0)
  })

  it('refuses an empty file and one in another format', async () => {
    const { api } = await openPage(legacyRoutes())
    const front = await slot('identity_document', 'front')
    const input = within(front).getByTestId('identity-slot-identity_document-front-input')

    fireEvent.change(input, { target: { files: [new File(['GIF89a'], 'scan.gif', { type: 'image/gif' })] } })
    expect(within(front).getByRole('alert').textContent).toBe(
      'scan.gif is not a PDF, PNG or JPEG file. Choose a file in one of these formats.',
    )
    fireEvent.change(input, { target: { files: [pngFile(0, 'blank.png')] } })
    expect(within(front).getByRole('alert').textContent).toBe('blank.png is empty. Choose another file.')
    expect(callsTo(api, '/me/personal/identity_document', 'POST')).toHaveLength(0)
  })

  it('uploads a png as multipart form data, shows progress, then the new status, and refreshes the requirements', async () => {
    let finish: (status: DocumentVerificationStatus) => void = () => {}
    const pending = documentStatus('identity_document', {
      front: { status: 'pending', previously_submitted: true, rejection_reason: null },
    })
    const { api, user } = await openPage({
      ...legacyRoutes(),
      'POST /me/personal/identity_document': () => new Promise((resolve) => (finish = resolve)),
    })
    const front = await slot('identity_document', 'front')
    const requirementsBefore = callsTo(api, '/me/personal/payout_requirements').length
    const file = pngFile()
    await user.click(within(front).getByRole('button', { name: 'Upload file' }))
    await user.upload(within(front).getByTestId('identity-slot-identity_document-front-input'), file)

    const progress = await within(front).findByTestId('identity-slot-identity_document-front-progress')
    expect(within(progress).getByRole('progressbar', { name: 'Uploading passport.png…' })).toBeTruthy()
    expect((within(front).getByTestId('identity-slot-identity_document-front-upload') as HTMLButtonElement).disabled).toBe(true)

    const [[path, init]] = callsTo(api, '/me/personal/identity_document', 'POST') as [[string, ApiRequest]]
    expect(path).toBe('/me/personal/identity_document')
    expect(init.body).toBeInstanceOf(FormData)
    const body = init.body as FormData
    expect(body.get('side')).toBe('front')
    const sent = body.get('file') as File
    expect(sent.name).toBe('passport.png')
    expect(sent.type).toBe('image/png')

    finish(pending)
    await waitFor(() => expect(within(front).getByTestId('identity-slot-identity_document-front-status').textContent).toBe('Being checked'))
    expect(within(front).getByText('passport.png was uploaded and is being checked.')).toBeTruthy()
    expect(within(front).queryByTestId('identity-slot-identity_document-front-progress')).toBeNull()
    await waitFor(() => expect(callsTo(api, '/me/personal/payout_requirements').length).toBeGreaterThan(requirementsBefore))
  })

  it('shows the server’s reason when it refuses the file', async () => {
    const { user } = await openPage({
      ...legacyRoutes(),
      'POST /me/personal/identity_document': () => {
        throw new ApiError({
          status: 400,
          code: 'validation_failed',
          message: 'body.file: The file is empty',
          details: { field: 'body.file', fields: [{ field: 'body.file', message: 'The file is empty' }] },
          requestId: 'test',
        })
      },
    })
    const back = await slot('identity_document', 'back')
    await user.upload(within(back).getByTestId('identity-slot-identity_document-back-input'), pngFile(2048, 'fake.png'))
    expect((await within(back).findByRole('alert')).textContent).toBe('The file was not accepted: The file is empty')
    expect((within(back).getByTestId('identity-slot-identity_document-back-upload') as HTMLButtonElement).disabled).toBe(false)
  })

  it('says a file is too large when the server answers 413', async () => {
    const { user } = await openPage({
      ...legacyRoutes(),
      'POST /me/personal/additional_identity_document': () => {
        throw new ApiError({
          status: 413,
          code: 'file_too_large',
          message: 'file: The file is larger than 10000000 bytes',
          requestId: 'test',
        })
      },
    })
    const front = await slot('additional_identity_document', 'front')
    await user.upload(within(front).getByTestId('identity-slot-additional_identity_document-front-input'), pngFile())
    expect((await within(front).findByRole('alert')).textContent).toBe('The file is larger than 10 MB. Choose a smaller file.')
  })

  it('polls while a side is being checked and refreshes the requirements once it is verified', async () => {
    let reads = 0
    const { api } = await openPage({
      ...legacyRoutes(),
      'GET /me/personal/identity_document/verification_status': () => {
        reads += 1
        const front: DocumentSideState =
          reads === 1
            ? { status: 'pending', previously_submitted: true, rejection_reason: null }
            : { status: 'verified', previously_submitted: true, rejection_reason: null }
        return documentStatus('identity_document', { front })
      },
    })
    const front = await slot('identity_document', 'front')
    expect(within(front).getByTestId('identity-slot-identity_document-front-status').textContent).toBe('Being checked')
    const requirementsBefore = callsTo(api, '/me/personal/payout_requirements').length

    await waitFor(() => expect(within(front).getByTestId('identity-slot-identity_document-front-status').textContent).toBe('Verified'), {
      timeout: 4000,
    })
    await waitFor(() => expect(callsTo(api, '/me/personal/payout_requirements').length).toBeGreaterThan(requirementsBefore))
    expect(reads).toBe(2)
  })

  it('offers a retry when the method cannot be loaded', async () => {
    await openPage({
      'GET /me/verification_method': () => {
        throw apiError(404, 'not_found')
      },
    })
    const error = await screen.findByTestId('identity-error')
    expect(within(error).getByText('We could not load your identity verification.')).toBeTruthy()
    expect(within(error).getByRole('button', { name: 'Try again' })).toBeTruthy()
  })
})

describe('identity verification with the provider’s session (stripe_identity)', () => {
  const method = { 'GET /me/verification_method': { verification_method: 'stripe_identity', message: 'Verify with Stripe' } }
  const status = (overrides: Partial<VerificationStatus> = {}): VerificationStatus => ({
    verification_method: 'stripe_identity',
    verified: false,
    message: '',
    verification_session_id: null,
    verification_session_status: 'not_created',
    ...overrides,
  })

  afterEach(() => vi.restoreAllMocks())

  it('opens the verification session and goes to its page', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {})
    const { api, user } = await openPage({
      ...method,
      'GET /me/verification_status': status(),
      'GET /me/verification_session': {
        verification_session_id: 'vs_1',
        verification_session_status: 'requires_input',
        client_secret: 'vs_1_secret',
        url: 'https://verify.example.test/session/vs_1',
        message: '',
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Verify your identity' }))

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://verify.example.test/session/vs_1'))
    expect(callsTo(api, '/me/verification_session')).toEqual([['/me/verification_session', { query: { return_url: '/profile/details' } }]])
    expect(screen.queryByTestId('identity-legacy')).toBeNull()
  })

  it('explains why the last attempt failed', async () => {
    await openPage({
      ...method,
      'GET /me/verification_status': status({
        verification_session_id: 'vs_1',
        verification_session_status: 'requires_input',
        message: 'The document was expired',
      }),
    })
    const failed = await screen.findByTestId('identity-failed')
    expect(failed.textContent).toContain('Your last attempt did not succeed')
    expect(failed.textContent).toContain('The document was expired')
    expect(screen.getByRole('button', { name: 'Verify your identity' })).toBeTruthy()
  })

  it('polls while processing and shows the verified state', async () => {
    let reads = 0
    const { api } = await openPage({
      ...method,
      'GET /me/verification_status': () => {
        reads += 1
        return reads === 1
          ? status({ verification_session_id: 'vs_1', verification_session_status: 'processing' })
          : status({ verification_session_id: 'vs_1', verification_session_status: 'verified', verified: true })
      },
    })
    expect(await screen.findByTestId('identity-processing')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Verify your identity' })).toBeNull()
    const requirementsBefore = callsTo(api, '/me/personal/payout_requirements').length

    expect((await screen.findByTestId('identity-verified', {}, { timeout: 4000 })).textContent).toBe('Your identity is verified.')
    await waitFor(() => expect(callsTo(api, '/me/personal/payout_requirements').length).toBeGreaterThan(requirementsBefore))
  })
})
