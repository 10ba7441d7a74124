import { z } from 'zod'

/** The longest name a person may give a passkey ("Anna's phone"). */
export const passkeyNameMaxLength = 60

/** A passkey of the signed-in account, as the Account page lists it (issue 30). */
export const passkeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    created: z.string(),
    last_used: z.string().nullable(),
    /** Synced by the platform (iCloud Keychain, Google Password Manager…): survives a lost device. */
    backed_up: z.boolean(),
  })
  .meta({ id: 'Passkey' })
export type Passkey = z.infer<typeof passkeySchema>
export const passkeysSchema = z.array(passkeySchema)

/** POST /me/passkeys/registration_options: adding a way into the account asks for the password first. */
export const passkeyOptionsBodySchema = z.object({ current_password: z.string().min(1).max(1024) }).meta({ id: 'PasskeyOptionsRequest' })
export type PasskeyOptionsBody = z.infer<typeof passkeyOptionsBodySchema>

/** WebAuthn's PublicKeyCredentialCreationOptionsJSON, handed to the browser as it is. */
export const passkeyCreationOptionsSchema = z
  .looseObject({ challenge: z.string(), rp: z.looseObject({}), user: z.looseObject({}) })
  .meta({ id: 'PasskeyCreationOptions' })

/**
 * The browser's RegistrationResponseJSON (base64url fields), checked by the
 * server's WebAuthn library; every field the library reads is named, so
 * nothing else is passed on.
 */
const registrationResponseSchema = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  response: z.object({
    clientDataJSON: z.string().min(1).max(16_384),
    attestationObject: z.string().min(1).max(65_536),
    authenticatorData: z.string().max(65_536).optional(),
    publicKey: z.string().max(65_536).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.object({}),
})

export const registerPasskeyBodySchema = z
  .object({ name: z.string().trim().min(1).max(passkeyNameMaxLength), response: registrationResponseSchema })
  .meta({ id: 'RegisterPasskeyRequest' })
export type RegisterPasskeyBody = z.infer<typeof registerPasskeyBodySchema>
