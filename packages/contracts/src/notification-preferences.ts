import { z } from 'zod'

/**
 * The e-mails a person may turn off, by what they are about
 * (docs/decisions/101-notification-preferences.md). E-mails about money,
 * about a case, and about the account's security are not in the list:
 * they are always sent.
 */
export const optionalEmailCategories = ['messages', 'reminders', 'updates'] as const
export type OptionalEmailCategory = (typeof optionalEmailCategories)[number]

export const optionalEmailCategorySchema = z.enum(optionalEmailCategories)

/** GET and PUT /me/notification_preferences: true means the category is sent; every key is always present. */
export const notificationPreferencesSchema = z
  .strictObject({ messages: z.boolean(), reminders: z.boolean(), updates: z.boolean() })
  .meta({ id: 'NotificationPreferences' })
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>

// The object above must name every category, and nothing else.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const everyCategoryNamed: Same<keyof NotificationPreferences, OptionalEmailCategory> = true
void everyCategoryNamed
