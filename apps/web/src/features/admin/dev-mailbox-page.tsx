import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useParams } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatFileSize } from '../../lib/file-size.ts'
import { namedRoutes, routeTo } from '../../lib/named-routes.ts'
import { isMissing, useDevMail, useDevMailbox } from './dev-mailbox-api.ts'
import { MailHtmlFrame } from './mail-html-frame.tsx'

/** The server sends over SMTP: there are no files to show (the API answers 404). */
function NoMailbox() {
  const { t } = useTranslation()
  return (
    <Alert severity="info" data-testid="dev-mailbox-unavailable">
      <AlertTitle>{t('devMailbox.unavailable.title')}</AlertTitle>
      {t('devMailbox.unavailable.body')}
    </Alert>
  )
}

/** What the file mailer wrote (sandbox mode), newest first: when, to whom, and the subject, which opens it. */
export function DevMailboxPage() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const mailbox = useDevMailbox()
  const rows = mailbox.data?.pages.flat() ?? []
  return (
    <>
      <PageHeader title={t('devMailbox.title')} intro={t('devMailbox.intro')} />
      {mailbox.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : mailbox.isError ? (
        isMissing(mailbox.error) ? (
          <NoMailbox />
        ) : (
          <LoadErrorAlert error={mailbox.error} onRetry={() => void mailbox.refetch()} />
        )
      ) : rows.length === 0 ? (
        <Typography data-testid="dev-mailbox-empty">{t('devMailbox.empty')}</Typography>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" data-testid="dev-mailbox">
              <caption>{t('devMailbox.caption')}</caption>
              <TableHead>
                <TableRow>
                  <TableCell>{t('devMailbox.fields.date')}</TableCell>
                  <TableCell>{t('devMailbox.fields.to')}</TableCell>
                  <TableCell>{t('devMailbox.fields.subject')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((mail) => (
                  <TableRow key={mail.id} data-testid="dev-mailbox-row">
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(mail.date, locale)}</TableCell>
                    <TableCell>{mail.to}</TableCell>
                    <TableCell>
                      <Link component={RouterLink} to={routeTo('adminDevMail', { id: mail.id })}>
                        {mail.subject || t('devMailbox.noSubject')}
                      </Link>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {mailbox.hasNextPage && (
            <Button onClick={() => void mailbox.fetchNextPage()} disabled={mailbox.isFetchingNextPage} sx={{ mt: 2 }}>
              {t('admin.loadMore')}
            </Button>
          )}
        </>
      )}
    </>
  )
}

/** One e-mail as written: its headers, the HTML as a mail client shows it, the text exactly as the recipient would read it, and what is attached. */
export function DevMailPage() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const { id = '' } = useParams()
  const query = useDevMail(id)
  const crumbs = [{ label: t('devMailbox.title'), to: namedRoutes.adminDevMailbox }, { label: t('devMailbox.message') }]

  if (query.isPending) return <StatusMessage busy title={t('admin.loading')} headingLevel="h1" />
  if (query.isError)
    return (
      <>
        <PageHeader title={t('devMailbox.message')} breadcrumbs={crumbs} />
        {isMissing(query.error) ? (
          <Alert severity="warning" data-testid="dev-mail-not-found">
            {t('devMailbox.notFound')}
          </Alert>
        ) : (
          <LoadErrorAlert error={query.error} onRetry={() => void query.refetch()} />
        )}
      </>
    )

  const mail = query.data
  const fields: Array<[string, string]> = [
    [t('devMailbox.fields.from'), mail.from],
    [t('devMailbox.fields.to'), mail.to],
    ...(mail.reply_to ? ([[t('devMailbox.fields.replyTo'), mail.reply_to]] as Array<[string, string]>) : []),
    [t('devMailbox.fields.date'), formatDateTime(mail.date, locale)],
    [t('devMailbox.fields.messageId'), mail.message_id],
  ]
  return (
    <>
      <PageHeader title={mail.subject || t('devMailbox.noSubject')} breadcrumbs={crumbs} />
      <Box
        component="dl"
        data-testid="dev-mail-headers"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mb: 3 }}
      >
        {fields.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {mail.html !== null && (
        <>
          <Typography component="h2" variant="h6" gutterBottom>
            {t('devMailbox.html')}
          </Typography>
          <MailHtmlFrame html={mail.html} title={t('devMailbox.htmlFrame')} />
        </>
      )}
      <Typography component="h2" variant="h6" gutterBottom sx={{ mt: mail.html !== null ? 3 : 0 }}>
        {mail.html !== null ? t('devMailbox.plainText') : t('devMailbox.text')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography
          component="pre"
          data-testid="dev-mail-text"
          sx={{ m: 0, fontFamily: 'inherit', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {mail.text}
        </Typography>
      </Paper>
      {mail.attachments.length > 0 && (
        <>
          <Typography component="h2" variant="h6" gutterBottom sx={{ mt: 3 }}>
            {t('devMailbox.attachments')}
          </Typography>
          <Box component="ul" data-testid="dev-mail-attachments" sx={{ m: 0, pl: 3 }}>
            {mail.attachments.map((attachment, index) => (
              <li key={index}>
                <Typography component="span" sx={{ overflowWrap: 'anywhere' }}>
                  {attachment.filename}
                </Typography>{' '}
                <Typography component="span" color="text.secondary">
                  ({attachment.content_type}, {formatFileSize(attachment.size, locale)})
                </Typography>
              </li>
            ))}
          </Box>
        </>
      )}
      <Button component={RouterLink} to={namedRoutes.adminDevMailbox} sx={{ mt: 3 }}>
        {t('devMailbox.back')}
      </Button>
    </>
  )
}
