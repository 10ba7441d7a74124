import {
  type NotificationPreferences,
  type OptionalEmailCategory,
  optionalEmailCategories,
} from '@pactum/contracts/notification-preferences'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { optedOutCategories, replaceOptOuts } from './notification-opt-outs-repository.ts'

/**
 * Which optional e-mails a person gets (decision 101): every category is on
 * until they turn it off on the Account page or through an e-mail's link.
 */

export async function getNotificationPreferences(db: Kysely<Database>, userId: string): Promise<NotificationPreferences> {
  return preferencesFrom(await optedOutCategories(db, userId))
}

export async function saveNotificationPreferences(
  db: Kysely<Database>,
  userId: string,
  preferences: NotificationPreferences,
  now: Date,
): Promise<NotificationPreferences> {
  const off = optionalEmailCategories.filter((category) => !preferences[category])
  const on = optionalEmailCategories.filter((category) => preferences[category])
  await replaceOptOuts(db, userId, off, on, now)
  return getNotificationPreferences(db, userId)
}

function preferencesFrom(optedOut: readonly OptionalEmailCategory[]): NotificationPreferences {
  const off = new Set(optedOut)
  return { messages: !off.has('messages'), reminders: !off.has('reminders'), updates: !off.has('updates') }
}
