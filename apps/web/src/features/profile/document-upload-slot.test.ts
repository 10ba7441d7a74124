import { identityFileTypes, maxIdentityFileBytes } from '@pactum/contracts/verification'
import { describe, expect, it } from 'vitest'
import { acceptedFileTypes, fileProblem, maxUploadBytes } from './document-upload-slot.tsx'

const file = (name: string, type: string, size = 1000) => ({ name, type, size })

describe('identity file checks before upload', () => {
  it('use the limits of the contract', () => {
    expect(maxUploadBytes).toBe(maxIdentityFileBytes)
    expect([...acceptedFileTypes].sort()).toEqual([...identityFileTypes].sort())
  })

  it('accept pdf, png, jpeg and jpg up to 10,000,000 bytes, by name or by type', () => {
    expect(fileProblem(file('id.pdf', 'application/pdf'))).toBeNull()
    expect(fileProblem(file('id.JPG', ''))).toBeNull()
    expect(fileProblem(file('id.jpeg', 'image/jpeg', maxIdentityFileBytes))).toBeNull()
    expect(fileProblem(file('scan', 'image/png'))).toBeNull()
  })

  it('name what is wrong: format, emptiness or size', () => {
    expect(fileProblem(file('id.heic', 'image/heic'))).toBe('wrongType')
    expect(fileProblem(file('id.docx', ''))).toBe('wrongType')
    expect(fileProblem(file('id.png', 'image/png', 0))).toBe('empty')
    expect(fileProblem(file('id.png', 'image/png', maxIdentityFileBytes + 1))).toBe('tooLarge')
  })
})
