import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { type ReactNode } from 'react'
import { Link as RouterLink } from 'react-router'
import { CaseOffers } from '../../components/case-offers.tsx'
import { PdfDownloadButton } from '../../components/pdf-download-button.tsx'
import { ReceiptButton } from '../../components/receipt-button.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { namedRoutes } from '../../lib/named-routes.ts'
import { AdminConversation } from './admin-conversation.tsx'

/** What the escrow account holds now: what a release or a refund would move. */
export function escrowBalance(detail: AdminTransactionDetail): number {
  const account = `escrow:${detail.transaction.id}`
  return detail.ledger_entries
    .flatMap((entry) => entry.postings)
    .reduce((sum, posting) => (posting.account === account ? sum + posting.amount : sum), 0)
}

/** One section of the page: a heading, then its rows, or a line saying there are none. */
function Section({
  title,
  empty,
  count,
  children,
  testId,
}: {
  title: string
  empty: string
  count: number
  children: ReactNode
  testId: string
}) {
  return (
    <Paper variant="outlined" component="section" sx={{ p: 2 }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {count === 0 ? <Typography color="text.secondary">{empty}</Typography> : children}
    </Paper>
  )
}

function Columns({ names }: { names: string[] }) {
  return (
    <TableHead>
      <TableRow>
        {names.map((name) => (
          <TableCell key={name}>{name}</TableCell>
        ))}
      </TableRow>
    </TableHead>
  )
}

/** The card dispute on the sale's payment (decision 109), as the parties see it; the Chargebacks tab acts on it. */
function ChargebackFact({ detail }: { detail: AdminTransactionDetail }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const { transaction } = detail
  const chargeback = transaction.chargeback
  if (!chargeback) return null
  return (
    <span data-testid="admin-chargeback">
      {t('admin.detail.chargebackSummary', {
        status: t(`admin.chargebacks.statuses.${chargeback.status}`),
        amount: formatMoney(chargeback.amount, transaction.currency, locale),
        reason: chargeback.reason,
      })}
      {chargeback.frozen && ` · ${t('admin.chargebacks.frozen')}`}
      {chargeback.evidence_due_by &&
        chargeback.status === 'needs_response' &&
        ` · ${t('admin.detail.evidenceDueBy', { date: formatDateTime(chargeback.evidence_due_by, locale) })}`}
      {' · '}
      <Link component={RouterLink} to={namedRoutes.adminChargebacks}>
        {t('admin.tabs.chargebacks')}
      </Link>
    </span>
  )
}

/** The issuer's early fraud warning: admins only; it holds the release until one of them clears it. */
function FraudWarningFact({ detail }: { detail: AdminTransactionDetail }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const warning = detail.fraud_warning
  if (!warning) return null
  const received = formatDateTime(warning.received_at, locale)
  return (
    <span data-testid="admin-fraud-warning">
      {warning.cleared_at
        ? t('admin.detail.fraudWarningCleared', { type: warning.fraud_type, received, cleared: formatDateTime(warning.cleared_at, locale) })
        : t('admin.detail.fraudWarningOpen', { type: warning.fraud_type, received })}
    </span>
  )
}

/** The transaction's amounts and parties, then its history, ledger entries, provider events and e-mails. */
export function Details({ detail }: { detail: AdminTransactionDetail }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const { transaction } = detail
  const when = (iso: string | null) => (iso ? formatDateTime(iso, locale) : '—')
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale)
  const facts: Array<[string, ReactNode]> = [
    [t('admin.columns.id'), <code key="id">{transaction.id}</code>],
    [t('admin.columns.kind'), t(`admin.kinds.${transaction.type}`)],
    [t('admin.columns.status'), `${t(`transactionStatusNames.${transaction.status}`)} (${transaction.status})`],
    [t('admin.detail.description'), transaction.description],
    // The complaint the admin decides on, with its reason (issue 32: the console showed neither).
    [t('admin.detail.complaint'), detail.case ? `${t(`complaintReasons.${detail.case.reason}`)}: ${detail.case.description}` : '—'],
    ...(transaction.chargeback
      ? [[t('admin.detail.chargeback'), <ChargebackFact key="chargeback" detail={detail} />] as [string, ReactNode]]
      : []),
    ...(detail.fraud_warning
      ? [[t('admin.detail.fraudWarning'), <FraudWarningFact key="fraud" detail={detail} />] as [string, ReactNode]]
      : []),
    [t('roles.buyer'), detail.buyer_email ?? '—'],
    [t('roles.seller'), detail.seller_email ?? '—'],
    [t('admin.columns.client'), transaction.client_id ?? '—'],
    [t('admin.detail.escrow'), money(escrowBalance(detail), transaction.currency)],
  ]
  return (
    <Stack spacing={3}>
      <Paper variant="outlined" component="section" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('admin.detail.summary')}
        </Typography>
        <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
          {facts.map(([label, value]) => (
            <Stack key={label} direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              <Typography component="dt" sx={{ fontWeight: 600, minWidth: 160 }}>
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Stack>
          ))}
        </Stack>
        <ReceiptButton transaction={transaction} admin />
      </Paper>

      {detail.case && (
        <Section title={t('admin.detail.offers')} empty={t('transactionStatus.case.noOffers')} count={1} testId="admin-case">
          <CaseOffers dispute={detail.case} role={null} />
          <PdfDownloadButton document="caseFile" path={`/admin/transactions/${transaction.id}/case_file`} transactionId={transaction.id} />
        </Section>
      )}

      <AdminConversation detail={detail} />

      <Section title={t('admin.detail.history')} empty={t('admin.detail.noHistory')} count={detail.events.length} testId="admin-history">
        <Table size="small">
          <Columns
            names={[
              t('admin.columns.when'),
              t('admin.columns.event'),
              t('admin.columns.actor'),
              t('admin.columns.change'),
              t('admin.columns.reason'),
            ]}
          />
          <TableBody>
            {detail.events.map((event) => (
              <TableRow key={event.id}>
                <TableCell>{when(event.created_at)}</TableCell>
                <TableCell>{event.event}</TableCell>
                <TableCell>
                  {event.actor_email
                    ? `${event.actor_email} (${event.actor_kind})`
                    : t(event.actor_kind === 'partner' ? 'admin.actors.partner' : 'admin.actors.system')}
                </TableCell>
                <TableCell>
                  {event.from_status} → {event.to_status}
                </TableCell>
                {/* A message's reason is a 71-character hash (sha256:…): wrap it rather than widen the table past its card. */}
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{event.reason ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>

      <Section
        title={t('admin.detail.ledger')}
        empty={t('admin.detail.noLedger')}
        count={detail.ledger_entries.length}
        testId="admin-ledger-entries"
      >
        <Table size="small">
          <Columns names={[t('admin.columns.when'), t('admin.columns.entry'), t('admin.columns.account'), t('admin.columns.amount')]} />
          <TableBody>
            {detail.ledger_entries.flatMap((entry) =>
              entry.postings.map((posting, index) => (
                <TableRow key={`${entry.id}-${posting.account}-${index}`}>
                  <TableCell>{index === 0 ? when(entry.created_at) : ''}</TableCell>
                  <TableCell>{index === 0 ? `${entry.kind} (${entry.part}): ${entry.reason}` : ''}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{posting.account}</TableCell>
                  <TableCell align="right">{money(posting.amount, posting.currency)}</TableCell>
                </TableRow>
              )),
            )}
          </TableBody>
        </Table>
      </Section>

      <Section
        title={t('admin.detail.providerEvents')}
        empty={t('admin.detail.noProviderEvents')}
        count={detail.provider_events.length}
        testId="admin-provider-events"
      >
        <Table size="small">
          <Columns names={[t('admin.columns.when'), t('admin.columns.event'), t('admin.columns.provider'), t('admin.columns.processed')]} />
          <TableBody>
            {detail.provider_events.map((event) => (
              <TableRow key={event.id}>
                <TableCell>{when(event.created)}</TableCell>
                <TableCell>{event.type}</TableCell>
                <TableCell>
                  {event.provider} · <code>{event.event_id}</code>
                </TableCell>
                <TableCell>{when(event.processed_at)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>

      <Section
        title={t('admin.detail.emails')}
        empty={t('admin.detail.noEmails')}
        count={detail.notifications.length}
        testId="admin-emails"
      >
        <Table size="small">
          <Columns names={[t('admin.columns.when'), t('admin.columns.template'), t('admin.columns.recipient'), t('admin.columns.sent')]} />
          <TableBody>
            {detail.notifications.map((mail) => (
              <TableRow key={mail.id}>
                <TableCell>{when(mail.created_at)}</TableCell>
                <TableCell>{mail.template}</TableCell>
                <TableCell>
                  {t(`roles.${mail.recipient_role}`)} ({mail.language})
                </TableCell>
                <TableCell>
                  {mail.sent_at ? when(mail.sent_at) : t(`admin.mailStatus.${mail.status}`)}
                  {mail.failure && (
                    <Typography variant="body2" color="text.secondary">
                      {mail.failure}
                    </Typography>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>
    </Stack>
  )
}
