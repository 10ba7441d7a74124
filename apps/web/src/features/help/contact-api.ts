import type { TFunction } from '../../i18n/translator.ts'
import type { ApiClient } from '../../lib/api/api-client.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'

export interface ContactMessage {
  email: string
  subject: string
  message: string
}

export const contactLimits = { subject: 150, message: 5000 } as const

/** Shared shape of an e-mail address: something@domain.tld, no spaces. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** POST /app_api/contact_us (at the site root, not under /api/v1) → 201. */
export function sendContactMessage(api: ApiClient, message: ContactMessage) {
  return api.request<unknown>('/app_api/contact_us', { method: 'POST', body: message, fromSiteRoot: true })
}

/** 429 gets its own sentence: the person should wait, not retry at once. */
export function contactErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && (error.status === 429 || error.code === 'rate_limited')) {
    return t('help.contactUs.form.rateLimited')
  }
  return errorMessage(t, error)
}
