import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { type Migration, Migrator } from 'kysely/migration'
import * as users from './migrations/0001-users.ts'
import * as embeddedSignIn from './migrations/0002-embedded-sign-in.ts'
import * as signInAttempts from './migrations/0003-sign-in-attempts.ts'
import * as jobsAndWebhooks from './migrations/0004-jobs-and-webhooks.ts'
import * as sandboxProvider from './migrations/0005-sandbox-provider.ts'
import * as carrierTracking from './migrations/0006-carrier-tracking.ts'
import * as transactions from './migrations/0010-transactions.ts'
import * as shippingDetails from './migrations/0011-shipping-details.ts'
import * as onboarding from './migrations/0012-onboarding.ts'
import * as bankAccounts from './migrations/0013-bank-accounts.ts'
import * as verificationAndPayouts from './migrations/0014-verification-and-payouts.ts'
import * as notifications from './migrations/0015-notifications.ts'
import * as contactMessageDelivery from './migrations/0016-contact-message-delivery.ts'
import * as emailVerification from './migrations/0017-email-verification.ts'
import * as faceToFace from './migrations/0018-face-to-face.ts'
import * as rateLimits from './migrations/0019-rate-limits.ts'
import * as idempotencyClaims from './migrations/0020-idempotency-claims.ts'
import * as integerChargeCalculatorVersion from './migrations/0021-integer-charge-calculator-version.ts'
import * as shippingDetailsByBuyer from './migrations/0022-shipping-details-by-buyer.ts'
import * as usTaxIdentifiers from './migrations/0023-us-tax-identifiers.ts'
import * as carrierInTransit from './migrations/0024-carrier-in-transit.ts'
import * as listings from './migrations/0025-listings.ts'
import * as guestTransactions from './migrations/0026-guest-transactions.ts'
import * as partnerClientsAndTour from './migrations/0027-partner-clients-and-tour.ts'
import * as adminConsole from './migrations/0028-admin-console.ts'
import * as guestInvitationExpiry from './migrations/0029-guest-invitation-expiry.ts'
import * as clientManagement from './migrations/0031-client-management.ts'
import * as documentRetention from './migrations/0032-document-retention.ts'
import * as trackingAggregator from './migrations/0033-tracking-aggregator.ts'
import * as stripeAdapter from './migrations/0034-stripe-adapter.ts'
import * as bankAccountTokens from './migrations/0036-bank-account-tokens.ts'
import * as undeliverableNotifications from './migrations/0037-undeliverable-notifications.ts'
import * as accountProfile from './migrations/0038-account-profile.ts'
import * as trackingCodeIndex from './migrations/0039-tracking-code-index.ts'
import * as joinedWithCode from './migrations/0040-joined-with-code.ts'
import * as accountProfileRepairs from './migrations/0041-account-profile-repairs.ts'
import * as usersEmailVerified from './migrations/0042-users-email-verified.ts'
import * as passkeys from './migrations/0043-passkeys.ts'
import * as stoppedInvitations from './migrations/0044-stopped-invitations.ts'
import * as returnedPayments from './migrations/0045-returned-payments.ts'
import * as signInRecovery from './migrations/0046-sign-in-recovery.ts'
import * as pendingRegistrations from './migrations/0047-pending-registrations.ts'
import * as secondFactors from './migrations/0048-second-factors.ts'
import * as disputeCases from './migrations/0049-dispute-cases.ts'
import * as transactionMessages from './migrations/0050-transaction-messages.ts'
import * as receiptConfirmationRequests from './migrations/0051-receipt-confirmation-requests.ts'
import * as notificationPreferences from './migrations/0052-notification-preferences.ts'
import * as listingCodes from './migrations/0053-listing-codes.ts'
import * as providerLinks from './migrations/0054-provider-links.ts'
import * as dailyReconciliation from './migrations/0056-daily-reconciliation.ts'
import * as cardDisputes from './migrations/0057-card-disputes.ts'
import * as sellerPayouts from './migrations/0058-seller-payouts.ts'
import * as adminDecisions from './migrations/0059-admin-decisions.ts'
import * as sandboxIdentityRelatedPerson from './migrations/0060-sandbox-identity-related-person.ts'
import * as partnerWebhooks from './migrations/0061-partner-webhooks.ts'
import * as transactionVerifyCodes from './migrations/0062-transaction-verify-codes.ts'
import * as clientContactEmail from './migrations/0064-client-contact-email.ts'
import * as ledgerEntriesByTransaction from './migrations/0065-ledger-entries-by-transaction.ts'
import type { Database } from './schema.ts'

/**
 * Listed by hand rather than read from the folder, so that the set of
 * migrations is fixed at build time and the same on PGlite and PostgreSQL.
 * Append only: a released migration is never edited.
 */
const migrations: Record<string, Migration> = {
  '0001-users': users,
  '0002-embedded-sign-in': embeddedSignIn,
  '0003-sign-in-attempts': signInAttempts,
  '0004-jobs-and-webhooks': jobsAndWebhooks,
  '0005-sandbox-provider': sandboxProvider,
  '0006-carrier-tracking': carrierTracking,
  '0010-transactions': transactions,
  '0011-shipping-details': shippingDetails,
  '0012-onboarding': onboarding,
  '0013-bank-accounts': bankAccounts,
  '0014-verification-and-payouts': verificationAndPayouts,
  '0015-notifications': notifications,
  '0016-contact-message-delivery': contactMessageDelivery,
  '0017-email-verification': emailVerification,
  '0018-face-to-face': faceToFace,
  '0019-rate-limits': rateLimits,
  '0020-idempotency-claims': idempotencyClaims,
  '0021-integer-charge-calculator-version': integerChargeCalculatorVersion,
  '0022-shipping-details-by-buyer': shippingDetailsByBuyer,
  '0023-us-tax-identifiers': usTaxIdentifiers,
  '0024-carrier-in-transit': carrierInTransit,
  '0025-listings': listings,
  '0026-guest-transactions': guestTransactions,
  '0027-partner-clients-and-tour': partnerClientsAndTour,
  '0028-admin-console': adminConsole,
  '0029-guest-invitation-expiry': guestInvitationExpiry,
  '0031-client-management': clientManagement,
  '0032-document-retention': documentRetention,
  '0033-tracking-aggregator': trackingAggregator,
  '0034-stripe-adapter': stripeAdapter,
  '0036-bank-account-tokens': bankAccountTokens,
  '0037-undeliverable-notifications': undeliverableNotifications,
  '0038-account-profile': accountProfile,
  '0039-tracking-code-index': trackingCodeIndex,
  '0040-joined-with-code': joinedWithCode,
  '0041-account-profile-repairs': accountProfileRepairs,
  '0042-users-email-verified': usersEmailVerified,
  '0043-passkeys': passkeys,
  '0044-stopped-invitations': stoppedInvitations,
  '0045-returned-payments': returnedPayments,
  '0046-sign-in-recovery': signInRecovery,
  '0047-pending-registrations': pendingRegistrations,
  '0048-second-factors': secondFactors,
  '0049-dispute-cases': disputeCases,
  '0050-transaction-messages': transactionMessages,
  '0051-receipt-confirmation-requests': receiptConfirmationRequests,
  '0052-notification-preferences': notificationPreferences,
  '0053-listing-codes': listingCodes,
  '0054-provider-links': providerLinks,
  '0056-daily-reconciliation': dailyReconciliation,
  '0057-card-disputes': cardDisputes,
  '0058-seller-payouts': sellerPayouts,
  '0059-admin-decisions': adminDecisions,
  '0060-sandbox-identity-related-person': sandboxIdentityRelatedPerson,
  '0061-partner-webhooks': partnerWebhooks,
  '0062-transaction-verify-codes': transactionVerifyCodes,
  '0064-client-contact-email': clientContactEmail,
  '0065-ledger-entries-by-transaction': ledgerEntriesByTransaction,
}

function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } })
}

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName)
}

/** The migrations this database has not had yet, in order (`cli doctor`). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const known = await migrator(db).getMigrations()
  return known.filter((migration) => !migration.executedAt).map((migration) => migration.name)
}

/** Up to and including `name`: for tests of what a later migration does to existing rows. */
export async function migrateUpTo(db: Kysely<Database>, name: string): Promise<void> {
  const { error } = await migrator(db).migrateTo(name)
  if (error) throw error
}

/**
 * Names the schema the migrations build, by their names and code: a test
 * harness that keeps a migrated database as a template knows from it when
 * the template is stale (a migration edited before release, or a new one).
 */
export function schemaFingerprint(): string {
  const source = Object.entries(migrations)
    .map(([name, migration]) => `${name}\n${migration.up.toString()}\n${migration.down?.toString() ?? ''}`)
    .join('\n')
  return createHash('sha256').update(source).digest('hex').slice(0, 16)
}
