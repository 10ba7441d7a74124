import { hasVisibleCharacter } from '@pactum/contracts/text-rules'
import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { type PriceError, readPrice } from '../../lib/money-field/read-price.ts'

export const maxDescription = 1000

/** Why a field cannot be sent; the form turns each into a translated sentence (the deposit's own are `PriceError`s). */
export type FaceToFaceError = 'roleRequired' | 'descriptionRequired' | 'descriptionTooLong'

/**
 * The face-to-face build form (POST /p2p/me/transactions): role, item and
 * currency, then the deposit as typed in the interface language's format,
 * turned into minor units and held to the server's minimum price.
 */
export function faceToFaceFormSchema(input: { locale: Locale }) {
  return z
    .object({
      role: z.union([z.literal('buyer'), z.literal('seller'), z.literal('')]),
      description: z.string(),
      currency: z.string().regex(/^[a-z]{3}$/),
      deposit: z.string(),
    })
    .transform((values, context) => {
      const fail = (path: string, error: FaceToFaceError | PriceError) => {
        context.addIssue({ code: 'custom', path: [path], message: error })
      }
      if (values.role === '') fail('role', 'roleRequired')
      const description = values.description.trim()
      // Only invisible characters (zero-width spaces, joiners…) is no description either: the contracts' rule.
      if (!hasVisibleCharacter(description)) fail('description', 'descriptionRequired')
      else if (description.length > maxDescription) fail('description', 'descriptionTooLong')
      const deposit = readPrice(values.deposit, values.currency, input.locale, minimumPrice)
      if (typeof deposit !== 'number') fail('deposit', deposit)
      if (values.role === '' || typeof deposit !== 'number') return z.NEVER
      return { role: values.role, description, currency: values.currency, depositPrice: deposit }
    })
}

export type FaceToFaceFormInput = z.input<ReturnType<typeof faceToFaceFormSchema>>
export type FaceToFaceFormOutput = z.output<ReturnType<typeof faceToFaceFormSchema>>

/** The fields each step checks before the next one opens. */
export const fieldsByStep: readonly (readonly (keyof FaceToFaceFormInput)[])[] = [['role', 'description', 'currency'], ['deposit']]
