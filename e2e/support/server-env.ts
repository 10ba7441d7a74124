import { adminEmail, adminSlots } from './people.ts'

/**
 * The settings the browser tests need of the server they run against: the
 * one Playwright starts itself, or one started beforehand and named by
 * E2E_BASE_URL (`npm run test:cluster` starts its processes with these).
 */
export function e2eServerEnv(options: { publicUrl: string; dataDir: string }): Record<string, string> {
  return {
    PUBLIC_URL: options.publicUrl,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    // A shortened complaint window so that a browser test sees the release.
    COMPLAINT_PERIOD_SECONDS: '8',
    // The sandbox settles a bank refund (SEPA, P24) after 5 s by default; a browser test only waits for it.
    SANDBOX_REFUND_DELAY_SECONDS: '1',
    SANDBOX_DISPUTE_DELAY_SECONDS: '2',
    SANDBOX_TRACKING_IN_TRANSIT_SECONDS: '2',
    SANDBOX_TRACKING_DELIVERED_SECONDS: '3600',
    // Identity checks and the payout schedule in seconds, so that a browser test sees a payout arrive.
    SANDBOX_DOCUMENT_CHECK_SECONDS: '2',
    SANDBOX_PAYOUT_DELAY_SECONDS: '3',
    SANDBOX_PAYOUT_ARRIVAL_SECONDS: '4',
    // The admin console's test signs these addresses up; the server gives them the admin role.
    ADMIN_EMAILS: e2eAdminEmails(),
    // The cluster test (scripts/test-cluster.ts) drives one user's creates and reads far past a person's
    // pace, against this server's settings; the limits themselves are tested in invitation-limits.test.ts.
    TRANSACTION_CREATES_PER_HOUR: '1000000',
    // Every browser test registers its people from this one client address; the limit is tested in registration.test.ts.
    REGISTRATIONS_PER_CLIENT_PER_HOUR: '1000000',
    LIST_READS_PER_MINUTE: '1000000',
    // The webhooks console test (partner-webhooks-console.spec.ts) points an endpoint at a receiver on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE: 'true',
  }
}

/**
 * The people the e2e server treats as admins (people.ts, adminPerson): one
 * per admin test and attempt (a retry registers a new one; the data folder
 * lives for the whole run).
 */
function e2eAdminEmails(): string {
  return adminSlots.flatMap((slot) => [0, 1, 2].map((attempt) => adminEmail(slot, attempt))).join(',')
}
