import { isSupportedCountry } from '@pactum/domain/countries'
import { supportedLocales } from '@pactum/domain/locales'
import { z } from 'zod'
import { emailAddressSchema } from './text-rules.ts'

/**
 * Onboarding and profile (spec §3 Profile, Payout requirements, Country list;
 * §4 country flow; §7 Profile and payout, Other). snake_case as the API.
 */

export const countryCodeSchema = z
  .string()
  .refine((value) => isSupportedCountry(value), { message: 'Not a supported country (lower-case ISO 3166-1 alpha-2, as "us")' })

export const setActiveCountryBodySchema = z.object({ country_code: countryCodeSchema }).meta({ id: 'SetActiveCountryBody' })
export type SetActiveCountryBody = z.infer<typeof setActiveCountryBodySchema>

export const tosAcceptanceSchema = z
  .object({
    /** Seconds since the epoch; 0 = not accepted, or an older terms version accepted (spec §4). */
    unix_timestamp: z.number().int().min(0),
  })
  .meta({ id: 'TosAcceptance' })

export const acceptTosResponseSchema = z
  .object({ tos_acceptance: tosAcceptanceSchema.extend({ version: z.string() }) })
  .meta({ id: 'AcceptTosResponse' })
export type AcceptTosResponse = z.infer<typeof acceptTosResponseSchema>

export const businessTypes = ['individual', 'company'] as const
export type BusinessType = (typeof businessTypes)[number]

export const dobSchema = z
  .object({ day: z.number().int().min(1).max(31), month: z.number().int().min(1).max(12), year: z.number().int().min(1900).max(2200) })
  .refine((dob) => isRealDate(dob), { message: 'Not a real date' })

export function isRealDate(dob: { day: number; month: number; year: number }): boolean {
  const date = new Date(Date.UTC(dob.year, dob.month - 1, dob.day))
  return date.getUTCFullYear() === dob.year && date.getUTCMonth() === dob.month - 1 && date.getUTCDate() === dob.day
}

/** Spec §3 Profile, as GET /me/personal answers it. */
export const profileSchema = z
  .object({
    details_submitted: z.boolean(),
    business_type: z.enum(businessTypes),
    /** E.164, dial code included, as "+447700900123"; '' when not given. */
    phone: z.string(),
    ssn_last_4_provided: z.boolean(),
    name: z.object({ first: z.string(), last: z.string() }),
    address: z.object({
      line1: z.string(),
      line2: z.string(),
      city: z.string(),
      state: z.string(),
      postal_code: z.string(),
      country_code: z.string(),
    }),
    /** phone_country_code: the country (lower-case alpha-2) whose dial code the phone carries; '' when not given. */
    metadata: z.object({ phone_country_code: z.string() }),
    dob: z.object({ day: z.number().int(), month: z.number().int(), year: z.number().int() }).nullable(),
    tos_acceptance: tosAcceptanceSchema,
    /** The web page where the seller sells (POST /me/personal/business_url); '' when not given. */
    business_url: z.string(),
  })
  .meta({ id: 'Profile' })
export type Profile = z.infer<typeof profileSchema>

const nonEmpty = z.string().trim().min(1, 'Required').max(200)

/**
 * PUT /me/personal: every top-level part is optional (saved as given, the
 * rest kept); a part that is given must be complete. The country comes from
 * set_active_country; address.country_code, if sent, must equal it.
 */
export const updateProfileBodySchema = z
  .object({
    business_type: z.enum(businessTypes).optional(),
    /** Digits with the dial code of metadata.phone_country_code (or of the address country), as "+44 7700 900123". */
    phone: z
      .string()
      .transform((value) => value.replace(/[\s().-]/g, ''))
      .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, 'A phone number with its dial code, as +447700900123'))
      .optional(),
    name: z.object({ first: nonEmpty, last: nonEmpty }).optional(),
    address: z
      .object({
        line1: nonEmpty,
        line2: z.string().trim().max(200).optional(),
        city: nonEmpty,
        state: z.string().trim().max(100).optional(),
        postal_code: z.string().trim().max(20).optional(),
        country_code: z.string().optional(),
      })
      .optional(),
    metadata: z.object({ phone_country_code: countryCodeSchema }).optional(),
    dob: dobSchema.optional(),
    /**
     * US sellers only: the last four digits of the Social Security number
     * (payout requirement `ssn_last_4`). Handed to the payment provider,
     * never stored or shown by Pactum.
     */
    ssn_last_4: z
      .string()
      .transform((value) => value.replace(/\s/g, ''))
      .pipe(z.string().regex(/^\d{4}$/, 'The last 4 digits of the Social Security number'))
      .optional(),
    /** US sellers only, when the payout requirements ask for `id_number`: the full 9-digit Social Security number. */
    id_number: z
      .string()
      .transform((value) => value.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^\d{9}$/, 'The full 9-digit Social Security number'))
      .optional(),
  })
  .meta({ id: 'UpdateProfileBody' })
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>

/** Spec §3 Payout requirements. */
export const personalRequirements = ['name', 'dob', 'address', 'phone'] as const
export const otherRequirements = ['credit_account', 'identity_document', 'additional_identity_document', 'ssn_last_4', 'id_number'] as const

export const payoutRequirementsSchema = z
  .object({
    status: z.enum(['due', 'not_due']),
    requirements: z.object({ personal: z.array(z.string()), other: z.array(z.string()) }),
    details_submitted: z.boolean(),
    sells: z.boolean().meta({
      description:
        'whether the person sells (a sale as seller, or a listing): what is due matters only then, so the web does not press a buyer',
    }),
  })
  .meta({ id: 'PayoutRequirements' })
export type PayoutRequirements = z.infer<typeof payoutRequirementsSchema>

export const supportedCountrySchema = z
  .object({
    code: z.string(),
    name: z.string(),
    divisionLabel: z.string(),
    divisionRequired: z.boolean(),
    postalCodeRequired: z.boolean(),
    dialCode: z.string(),
  })
  .meta({ id: 'SupportedCountry' })
export const supportedCountriesSchema = z.array(supportedCountrySchema)

export const languageCodeSchema = z.enum(supportedLocales)
export const notificationLanguageSchema = z.object({ language_code: languageCodeSchema }).meta({ id: 'NotificationLanguage' })
export type NotificationLanguage = z.infer<typeof notificationLanguageSchema>
export const supportedNotificationLanguagesSchema = z.array(notificationLanguageSchema)

/** Header fields of the support e-mail: no line breaks or other control characters. */
const oneLine = /^[^\p{Cc}]*$/u

export const contactUsBodySchema = z
  .object({
    name: z.string().trim().max(200).regex(oneLine, 'One line').optional(),
    email: emailAddressSchema,
    subject: z.string().trim().min(1, 'Required').max(200).regex(oneLine, 'One line'),
    message: z.string().trim().min(1, 'Required').max(10_000),
  })
  .meta({ id: 'ContactUsBody' })
export type ContactUsBody = z.infer<typeof contactUsBodySchema>

export const contactUsResponseSchema = z.object({ id: z.string(), created: z.string() }).meta({ id: 'ContactUsResponse' })
export type ContactUsResponse = z.infer<typeof contactUsResponseSchema>
