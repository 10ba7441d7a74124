import { describe, expect, it } from 'vitest'
import { taxIdentifierFields, taxIdentifiersFormSchema } from './tax-identifiers-model.ts'

const issues = (result: ReturnType<ReturnType<typeof taxIdentifiersFormSchema>['safeParse']>) =>
  result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`)

describe('tax identifiers form', () => {
  it('asks for the last four until given, and the full number only when the provider asks', () => {
    expect(taxIdentifierFields({ ssnLast4Provided: false, due: [] })).toEqual({ ssnLast4: true, idNumber: false })
    expect(taxIdentifierFields({ ssnLast4Provided: true, due: [] })).toEqual({ ssnLast4: false, idNumber: false })
    expect(taxIdentifierFields({ ssnLast4Provided: true, due: ['id_number'] })).toEqual({ ssnLast4: false, idNumber: true })
  })

  it('sends only what is asked, in the contracts’ form', () => {
    const both = taxIdentifiersFormSchema({ ssnLast4: true, idNumber: true })
    expect(both.parse({ ssnLast4: ' 1234 ', idNumber: '123-45-6789' })).toEqual({ ssn_last_4: '1234', id_number: '123456789' })
    expect(taxIdentifiersFormSchema({ ssnLast4: false, idNumber: true }).parse({ ssnLast4: '99', idNumber: '123456789' })).toEqual({
      id_number: '123456789',
    })
  })

  it('names the field and the problem', () => {
    const both = taxIdentifiersFormSchema({ ssnLast4: true, idNumber: true })
    expect(issues(both.safeParse({ ssnLast4: '', idNumber: '' }))).toEqual(['ssnLast4:required', 'idNumber:required'])
    expect(issues(both.safeParse({ ssnLast4: '12a4', idNumber: '12345' }))).toEqual(['ssnLast4:ssnLast4Format', 'idNumber:idNumberFormat'])
  })
})
