import { updateProfileBodySchema } from '@pactum/contracts/profile'
import { z } from 'zod'

/** Why a tax identifier cannot be sent; the section turns each into a translated sentence. */
export type TaxIdentifierError = 'required' | 'ssnLast4Format' | 'idNumberFormat'

/** What the form asks for: the SSN's last four until they were given, the full number when the provider asks. */
export interface TaxIdentifierFields {
  ssnLast4: boolean
  idNumber: boolean
}

/**
 * The US tax identifiers form (PUT /me/personal `ssn_last_4`, `id_number`),
 * held to the contracts' own rules; a field that is not asked stays empty
 * and is not sent.
 */
export function taxIdentifiersFormSchema(fields: TaxIdentifierFields) {
  const rule = (asked: boolean, schema: z.ZodType<string>, format: TaxIdentifierError) =>
    z.string().transform((text, context) => {
      if (!asked) return undefined
      if (text.trim() === '') {
        context.addIssue({ code: 'custom', message: 'required' })
        return z.NEVER
      }
      const parsed = schema.safeParse(text)
      if (!parsed.success) {
        context.addIssue({ code: 'custom', message: format })
        return z.NEVER
      }
      return parsed.data
    })
  return z
    .object({
      ssnLast4: rule(fields.ssnLast4, updateProfileBodySchema.shape.ssn_last_4.unwrap(), 'ssnLast4Format'),
      idNumber: rule(fields.idNumber, updateProfileBodySchema.shape.id_number.unwrap(), 'idNumberFormat'),
    })
    .transform(({ ssnLast4, idNumber }) => ({
      ...(ssnLast4 !== undefined ? { ssn_last_4: ssnLast4 } : {}),
      ...(idNumber !== undefined ? { id_number: idNumber } : {}),
    }))
}

export type TaxIdentifiersFormInput = z.input<ReturnType<typeof taxIdentifiersFormSchema>>
export type TaxIdentifiersFormOutput = z.output<ReturnType<typeof taxIdentifiersFormSchema>>

/** What to ask: the last four while due (or never given), the full number only when the requirements name it. */
export function taxIdentifierFields(input: { ssnLast4Provided: boolean; due: readonly string[] }): TaxIdentifierFields {
  return { ssnLast4: !input.ssnLast4Provided || input.due.includes('ssn_last_4'), idNumber: input.due.includes('id_number') }
}
