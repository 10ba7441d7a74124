/**
 * Server test files whose outcome cannot depend on the database engine:
 * they open no database and start no server (pure functions, fakes' own
 * contracts, HTTP plugins, lint rules, renderers). CI's second pass on
 * PostgreSQL (`npm run test:db`) leaves them out, since it would only run
 * them again unchanged. The list cannot go stale unseen: a file named here
 * that opens a test database fails (test-database.ts), so every file that
 * touches the engine runs on both. Paths are relative to apps/server.
 */
export const engineIndependentTestFiles: readonly string[] = [
  'src/adapters/carrier-tracker/aftership-required-fields.test.ts',
  'src/adapters/carrier-tracker/aftership-tags.test.ts',
  'src/adapters/carrier-tracker/tracking-pages.test.ts',
  'src/adapters/document-store/document-store.contract.test.ts',
  'src/adapters/mailer/dev-mailbox.test.ts',
  'src/adapters/mailer/mailer.contract.test.ts',
  'src/bank-link-config.test.ts',
  'src/doctor/checks/bank-link.test.ts',
  'src/http/named-plugin.test.ts',
  'src/http/plugins/error-handler.test.ts',
  'src/http/plugins/security-headers.test.ts',
  'src/http/request-log.test.ts',
  'src/ids.test.ts',
  'src/metrics/alert-rules.test.ts',
  'src/modules/conversation/jpeg-orientation.test.ts',
  'src/modules/notifications/guest-invitation-message.test.ts',
  'src/modules/notifications/mail-rendering.test.ts',
  'src/modules/notifications/notification-categories.test.ts',
  'src/modules/notifications/notification-messages.test.ts',
  'src/modules/partner-webhooks/safe-target.test.ts',
  'src/modules/payments/reduce-provider-event.test.ts',
  'src/modules/payouts/reduce-payout-event.test.ts',
  'src/modules/receipts/receipt-pdf-thread.test.ts',
  'src/modules/sign-in/oidc/email-address.test.ts',
  'src/modules/sign-in/oidc/passwords.test.ts',
  'src/modules/sign-in/oidc/token-minter.test.ts',
  'src/modules/sign-in/oidc/translations.test.ts',
  'src/modules/sign-in/remembered-tokens.test.ts',
  'src/modules/transactions/routes/action-routes.test.ts',
  'src/modules/verify/badge.test.ts',
  'src/modules/verify/masked-email.test.ts',
  'src/pdf/pdf-document.test.ts',
  'src/pdf/pdf-thread.test.ts',
  'src/random-bytes.test.ts',
  'src/server-layers.test.ts',
  'src/testing/aftership-fake.test.ts',
  'src/testing/slowest-files-first.test.ts',
  'src/testing/stripe-schema.test.ts',
  'src/tracing/otel-tracing.test.ts',
  'src/tracing/start-tracing.test.ts',
  'src/trust-proxy.test.ts',
]

/** Whether the test file at this path (absolute, as Vitest names it) is one of the engine-independent ones. */
export function isEngineIndependentTestFile(testPath: string): boolean {
  const normalised = testPath.replaceAll('\\', '/')
  return engineIndependentTestFiles.some((file) => normalised.endsWith(`/apps/server/${file}`))
}
