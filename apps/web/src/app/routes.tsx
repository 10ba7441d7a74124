import { type ReactNode, Suspense } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { matchPath, type RouteObject } from 'react-router'
import { FullPageStatus } from '../components/status-message.tsx'
import { TransactionsPage } from '../features/transactions/transactions-page.tsx'
import { AuthCallbackPage } from '../features/auth/auth-callback-page.tsx'
import { LoginPage, RegisterPage } from '../features/auth/sign-in-start-page.tsx'
import { termsPath } from '../lib/terms-path.ts'
import { namedRoutes as r } from '../lib/named-routes.ts'
import { ChunkErrorBoundary } from './chunk-error-boundary.tsx'
import { lazyPage } from './lazy-page.ts'
import { Redirect } from './redirect.tsx'
import { RequireAuth } from './require-auth.tsx'
import { AppShell } from './shell/app-shell.tsx'

// Every page but My transactions is its own chunk. My transactions is the first screen (where `/` and
// sign-in lead): it is in the entry, and renders with the first part of the dictionary only.
const TransactionStatusPage = lazyPage(() => import('../features/transactions/transaction-status-page.tsx'), 'TransactionStatusPage')
const CreateTransactionPage = lazyPage(() => import('../features/create-transaction/create-transaction-page.tsx'), 'CreateTransactionPage')
const JoinTransactionPage = lazyPage(() => import('../features/join-transaction/join-transaction-page.tsx'), 'JoinTransactionPage')
const JoinByCodePage = lazyPage(() => import('../features/join-transaction/join-by-code-page.tsx'), 'JoinByCodePage')
const ListingsPage = lazyPage(() => import('../features/listings/listings-page.tsx'), 'ListingsPage')
const JoinListingPage = lazyPage(() => import('../features/join-transaction/join-listing-page.tsx'), 'JoinListingPage')
const ClaimGuestAsBuyerPage = lazyPage(
  () => import('../features/join-transaction/claim-guest-transaction-page.tsx'),
  'ClaimGuestAsBuyerPage',
)
const SignedOutLanding = lazyPage(() => import('../features/join-transaction/signed-out-landing.tsx'), 'SignedOutLanding')
const ClaimGuestAsSellerPage = lazyPage(
  () => import('../features/join-transaction/claim-guest-transaction-page.tsx'),
  'ClaimGuestAsSellerPage',
)
const ProfileLayout = lazyPage(() => import('../features/profile/profile-layout.tsx'), 'ProfileLayout')
const PersonalDetailsPage = lazyPage(() => import('../features/profile/personal-details-page.tsx'), 'PersonalDetailsPage')
const BankDetailsPage = lazyPage(() => import('../features/profile/bank-details-page.tsx'), 'BankDetailsPage')
const BalancePage = lazyPage(() => import('../features/profile/balance-page.tsx'), 'BalancePage')
const HelpLayout = lazyPage(() => import('../features/help/help-layout.tsx'), 'HelpLayout')
const AccountPage = lazyPage(() => import('../features/help/account-page.tsx'), 'AccountPage')
const FaqPage = lazyPage(() => import('../features/help/faq-page.tsx'), 'FaqPage')
const ContactUsPage = lazyPage(() => import('../features/help/contact-us-page.tsx'), 'ContactUsPage')
const TermsPage = lazyPage(() => import('../features/help/terms-page.tsx'), 'TermsPage')
// The admin console: its own chunks, never loaded for people who do not open it.
const AdminLayout = lazyPage(() => import('../features/admin/admin-layout.tsx'), 'AdminLayout')
const AdminTransactionsPage = lazyPage(() => import('../features/admin/admin-transactions-page.tsx'), 'AdminTransactionsPage')
const AdminTransactionPage = lazyPage(() => import('../features/admin/admin-transaction-page.tsx'), 'AdminTransactionPage')
const AuditLogPage = lazyPage(() => import('../features/admin/audit-log-page.tsx'), 'AuditLogPage')
const CasesPage = lazyPage(() => import('../features/admin/cases-page.tsx'), 'CasesPage')
const DevMailboxPage = lazyPage(() => import('../features/admin/dev-mailbox-page.tsx'), 'DevMailboxPage')
const DevMailPage = lazyPage(() => import('../features/admin/dev-mailbox-page.tsx'), 'DevMailPage')
const LedgerHealthPage = lazyPage(() => import('../features/admin/ledger-health-page.tsx'), 'LedgerHealthPage')
const ReconciliationPage = lazyPage(() => import('../features/admin/reconciliation-page.tsx'), 'ReconciliationPage')
const ChargebacksPage = lazyPage(() => import('../features/admin/chargebacks-page.tsx'), 'ChargebacksPage')
const ClientsPage = lazyPage(() => import('../features/admin/clients-page.tsx'), 'ClientsPage')
const WebhooksPage = lazyPage(() => import('../features/admin/webhooks-page.tsx'), 'WebhooksPage')
// The public check of a sale's escrow (decision 114): its own chunk, opened from a link or a QR code.
const VerifyPage = lazyPage(() => import('../features/verify/verify-page.tsx'), 'VerifyPage')

/** A lazily loaded page outside the signed-in shell. */
function PublicPage({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<FullPageStatus busy title={t('app.loading')} />}>{children}</Suspense>
    </ChunkErrorBoundary>
  )
}

/** Spec §2 redirects: old and intermediate profile paths all land on a real page. */
const profileRedirects: Array<[from: string, to: string, hash?: string]> = [
  [r.profile, r.personalDetails],
  ['/profile/personal', r.personalDetails],
  ['/profile/account', r.account],
  [r.payout, r.personalDetails],
  [r.payoutPersonalDetails, r.personalDetails],
  ['/profile/payout/payment', r.personalDetails],
  [r.payoutIdentityDocument, r.personalDetails, '#identity-document'],
  ['/profile/payment', r.personalDetails],
  ['/profile/payment/card-details', r.personalDetails],
  ['/profile/id-document', r.personalDetails, '#identity-document'],
  [r.help, r.account],
]

/** The links people are sent (an invitation, a listing, a join code): opened signed out, they land on what the link is for. */
const landingPaths = [r.joinGuestTransaction, r.joinGuestTransactionAsSeller, r.joinListing, r.joinTransactionByCode]

/** Issue 33 items 8 and 9: those links show a landing to someone not signed in; every other page starts the sign-in. */
function signedOutLanding(pathname: string): ReactNode | undefined {
  if (!landingPaths.some((path) => matchPath(path, pathname))) return undefined
  return (
    <PublicPage>
      <SignedOutLanding />
    </PublicPage>
  )
}

/** The whole route table (spec §2). */
export const routes: RouteObject[] = [
  { path: r.login, element: <LoginPage /> },
  { path: r.register, element: <RegisterPage /> },
  { path: r.authCallback, element: <AuthCallbackPage /> },
  // Public (no sign-in): linked from the blocking terms dialogs and readable before registering. English only.
  {
    path: termsPath,
    element: (
      <PublicPage>
        <TermsPage />
      </PublicPage>
    ),
  },
  // Public (no sign-in): anyone holding a sale's verification link checks its escrow, in the browser's language.
  {
    path: r.verify,
    element: (
      <PublicPage>
        <VerifyPage />
      </PublicPage>
    ),
  },
  {
    element: (
      <RequireAuth landingFor={signedOutLanding}>
        <AppShell />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <Redirect to={r.transactions} /> },
      { path: r.transactions, element: <TransactionsPage /> },
      { path: r.listings, element: <ListingsPage /> },
      { path: r.status, element: <TransactionStatusPage /> },
      { path: r.createTransaction, element: <CreateTransactionPage /> },
      { path: r.buildTransaction, element: <CreateTransactionPage /> },
      { path: r.joinTransaction, element: <JoinTransactionPage /> },
      { path: r.joinTransactionByCode, element: <JoinByCodePage /> },
      { path: r.joinListing, element: <JoinListingPage /> },
      { path: r.joinGuestTransaction, element: <ClaimGuestAsBuyerPage /> },
      { path: r.joinGuestTransactionAsSeller, element: <ClaimGuestAsSellerPage /> },
      ...profileRedirects.map(([from, to, hash]) => ({ path: from, element: <Redirect to={to} {...(hash ? { hash } : {})} /> })),
      {
        element: <ProfileLayout />,
        children: [
          { path: r.personalDetails, element: <PersonalDetailsPage /> },
          { path: r.payoutBankDetails, element: <BankDetailsPage /> },
          { path: r.balance, element: <BalancePage /> },
          {
            element: <HelpLayout />,
            children: [
              { path: r.account, element: <AccountPage /> },
              { path: r.faq, element: <FaqPage /> },
              { path: r.contactUs, element: <ContactUsPage /> },
            ],
          },
        ],
      },
      {
        element: <AdminLayout />,
        children: [
          { path: r.admin, element: <AdminTransactionsPage /> },
          { path: r.adminTransaction, element: <AdminTransactionPage /> },
          { path: r.adminAuditLog, element: <AuditLogPage /> },
          { path: r.adminLedger, element: <LedgerHealthPage /> },
          { path: r.adminReconciliation, element: <ReconciliationPage /> },
          { path: r.adminChargebacks, element: <ChargebacksPage /> },
          { path: r.adminClients, element: <ClientsPage /> },
          { path: r.adminClientWebhooks, element: <WebhooksPage /> },
          { path: r.adminDevMailbox, element: <DevMailboxPage /> },
          { path: r.adminCases, element: <CasesPage /> },
          { path: r.adminDevMail, element: <DevMailPage /> },
        ],
      },
      { path: '*', element: <Redirect to={r.transactions} /> },
    ],
  },
]
