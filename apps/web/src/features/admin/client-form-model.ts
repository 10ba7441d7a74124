import type { AdminClient } from '@pactum/contracts/admin'
import {
  clientIdSchema,
  hexColourSchema,
  type PartnerClientBody,
  partnerClientBodySchema,
  routePatternSchema,
} from '@pactum/contracts/partner-clients'
import { z } from 'zod'
import { ApiError } from '../../lib/api/api-error.ts'

/**
 * The console's client form: the API's body with the allowed routes typed as
 * text, one per line (or separated by commas or spaces).
 */
export const clientFormSchema = z.object({
  client_id: z.string().trim().pipe(clientIdSchema),
  name: partnerClientBodySchema.shape.name,
  background_color: z.string().trim().pipe(hexColourSchema),
  text_color: z.string().trim().pipe(hexColourSchema),
  url: z.string().trim().pipe(partnerClientBodySchema.shape.url),
  routes: z
    .string()
    .transform((text) => text.split(/[\s,]+/).filter((route) => route !== ''))
    .pipe(z.array(routePatternSchema)),
  mobile_navbar_hidden: z.boolean(),
  show_seller_confirm_handover: z.boolean(),
  /** Empty: none (the partner hears nothing; Pactum's support address still does). */
  contact_email: z
    .string()
    .trim()
    .transform((text) => (text === '' ? null : text))
    .pipe(z.email().max(254).nullable()),
})
export type ClientFormInput = z.input<typeof clientFormSchema>
export type ClientFormOutput = z.output<typeof clientFormSchema>
export type ClientFormField = Exclude<keyof ClientFormInput, 'mobile_navbar_hidden' | 'show_seller_confirm_handover'>

const textFields: readonly ClientFormField[] = ['client_id', 'name', 'background_color', 'text_color', 'url', 'routes', 'contact_email']

/** A new client starts with the product's own colours and every route allowed. */
export function formValuesOf(client: AdminClient | null): ClientFormInput {
  if (!client) {
    return {
      client_id: '',
      name: '',
      background_color: '#1d3557',
      text_color: '#ffffff',
      url: 'https://',
      routes: '',
      mobile_navbar_hidden: false,
      show_seller_confirm_handover: true,
      contact_email: '',
    }
  }
  return {
    client_id: client.client_id,
    name: client.name,
    background_color: client.background_color,
    text_color: client.text_color,
    url: client.url,
    routes: client.routes.join('\n'),
    mobile_navbar_hidden: client.mobile_navbar_hidden,
    show_seller_confirm_handover: client.show_seller_confirm_handover,
    contact_email: client.contact_email ?? '',
  }
}

export function clientBody(values: ClientFormOutput): PartnerClientBody {
  const { client_id: _id, ...body } = values
  return body
}

/**
 * The form field a server refusal names: `details.field` (`body.client_id`
 * for `client_exists`) or a `validation_failed`'s `details.fields[].field`
 * (`body.routes.2` belongs to the routes box).
 */
export function serverFieldOf(error: unknown): ClientFormField | null {
  if (!(error instanceof ApiError)) return null
  const named: unknown[] = [error.details.field]
  if (Array.isArray(error.details.fields)) {
    for (const entry of error.details.fields) if (entry && typeof entry === 'object' && 'field' in entry) named.push(entry.field)
  }
  for (const field of named) {
    if (typeof field !== 'string') continue
    const name = field.replace(/^body\./, '').split('.')[0] as ClientFormField
    if (textFields.includes(name)) return name
  }
  return null
}
