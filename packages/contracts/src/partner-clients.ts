import { z } from 'zod'

/** A CSS hex colour (#rgb or #rrggbb): what the web app paints with. */
export const hexColourSchema = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a hex colour such as #1d3557')

/**
 * An allowed route of the web app: a path, optionally ending in `/*` for
 * everything under it (`/transaction/*`). An empty list allows every route.
 */
export const routePatternSchema = z.string().regex(/^\/[A-Za-z0-9\-_/]*(\/\*)?$/, 'a path such as /transactions or /transaction/*')

/** The client's id as it appears in `?client_id=`: short and URL-safe. */
export const clientIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes, at most 64')

/** GET /clients/{client_id}: a partner marketplace's look and rules (spec §1, DESIGN §3 "Clients"). Public. */
export const partnerClientSchema = z
  .object({
    client_id: z.string(),
    name: z.string(),
    background_color: z.string(),
    text_color: z.string(),
    /** Where the top bar's back link goes: the partner's own site. */
    url: z.string(),
    routes: z.array(z.string()),
    mobile_navbar_hidden: z.boolean(),
    /** When false, face-to-face sales created under this client skip the seller's confirm-handover step. */
    show_seller_confirm_handover: z.boolean(),
  })
  .meta({ id: 'PartnerClient' })
export type PartnerClient = z.infer<typeof partnerClientSchema>

/** One client in the operator's configuration file (config/clients.json), keyed by its id. */
export const partnerClientSettingsSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  backgroundColor: hexColourSchema,
  textColor: hexColourSchema,
  url: z.url({ protocol: /^https?$/ }),
  routes: z.array(routePatternSchema).default([]),
  mobileNavbarHidden: z.boolean().default(false),
  showSellerConfirmHandover: z.boolean().default(true),
  /** Where Pactum writes about the integration (a webhook endpoint disabled after three days of failures). */
  contactEmail: z.email().max(254).optional(),
})
export type PartnerClientSettings = z.infer<typeof partnerClientSettingsSchema>

/** What an admin sends to change a client (`PUT /admin/clients/{client_id}`): the file's settings in the API's snake_case. */
export const partnerClientBodySchema = z.object({
  name: partnerClientSettingsSchema.shape.name,
  background_color: hexColourSchema,
  text_color: hexColourSchema,
  url: partnerClientSettingsSchema.shape.url,
  routes: z.array(routePatternSchema),
  mobile_navbar_hidden: z.boolean(),
  show_seller_confirm_handover: z.boolean(),
  /**
   * Where Pactum writes to the partner about its integration, such as a
   * webhook endpoint disabled after three days of failures; null: nowhere
   * but Pactum's support address. Left out: unchanged.
   */
  contact_email: z.email().max(254).nullable().optional(),
})
export type PartnerClientBody = z.infer<typeof partnerClientBodySchema>

/** `POST /admin/clients`: a new client, its id chosen by the admin. */
export const newPartnerClientBodySchema = partnerClientBodySchema.extend({ client_id: clientIdSchema })
export type NewPartnerClientBody = z.infer<typeof newPartnerClientBodySchema>

export const partnerClientsFileSchema = z.record(clientIdSchema, partnerClientSettingsSchema)
