import type { DocumentSideState, DocumentVerificationStatus } from '@pactum/contracts/verification'
import { documentSides, identityDocumentKinds } from '@pactum/contracts/verification'
import { describe, expect, it } from 'vitest'
import { hasPendingSide, identityDocuments, identitySides, newlyVerified } from './identity-api.ts'

const side = (status: DocumentSideState['status']): DocumentSideState => ({
  status,
  previously_submitted: status !== 'not_uploaded',
  rejection_reason: status === 'rejected' ? 'Blurry' : null,
})
const identity = (front: DocumentSideState['status'], back: DocumentSideState['status']): DocumentVerificationStatus => ({
  document: 'identity_document',
  required: true,
  front: side(front),
  back: side(back),
})

describe('identity verification rules', () => {
  it('know the documents and sides of the contract', () => {
    expect(identityDocuments).toEqual(identityDocumentKinds)
    expect(identitySides).toEqual(documentSides)
  })

  it('keep polling while either side is being checked', () => {
    expect(hasPendingSide(identity('pending', 'not_uploaded'))).toBe(true)
    expect(hasPendingSide(identity('verified', 'pending'))).toBe(true)
    expect(hasPendingSide(identity('verified', 'rejected'))).toBe(false)
  })

  it('notice a side that has just been verified, not one that already was', () => {
    expect(newlyVerified(identity('pending', 'pending'), identity('verified', 'pending'))).toBe(true)
    expect(newlyVerified(identity('verified', 'pending'), identity('verified', 'rejected'))).toBe(false)
    expect(newlyVerified(identity('verified', 'verified'), identity('verified', 'verified'))).toBe(false)
  })
})
