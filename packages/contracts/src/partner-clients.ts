import { z } from 'zod'

/** A CSS hex colour (#rgb or #rrggbb): what the web app paints with. */
const hexColour = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a hex colour such as #1d3557')

/**
 * An allowed route of the web app: a path, optionally ending in `/*` for
 * everything under it (`/transaction/*`). An empty list allows every route.
 */
const routePattern = z.string().regex(/^\/[A-Za-z0-9\-_/]*(\/\*)?$/, 'a path such as /transactions or /transaction/*')

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
  backgroundColor: hexColour,
  textColor: hexColour,
  url: z.url({ protocol: /^https?$/ }),
  routes: z.array(routePattern).default([]),
  mobileNavbarHidden: z.boolean().default(false),
  showSellerConfirmHandover: z.boolean().default(true),
})
export type PartnerClientSettings = z.infer<typeof partnerClientSettingsSchema>

export const partnerClientsFileSchema = z.record(clientIdSchema, partnerClientSettingsSchema)
