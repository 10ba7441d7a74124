import { zodResolver } from '@hookform/resolvers/zod'
import ExpandLessIcon from '@mui/icons-material/ExpandLess'
import ExpandMoreIcon from '@mui/icons-material/ExpandMore'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import LinearProgress from '@mui/material/LinearProgress'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type WebhookDelivery, type WebhookEndpoint, webhookReplayBodySchema } from '@pactum/contracts/partner-webhooks'
import { useId, useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Link as RouterLink } from 'react-router'
import { z } from 'zod'
import { BusyButton } from '../../components/busy-button.tsx'
import { FormDialog } from '../../components/form-dialog.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useReplayWebhooks, useWebhookDeliveries, type WebhookReplayBody } from './webhook-endpoints-api.ts'

const statusColour = { pending: 'info', delivered: 'success', failed: 'error' } as const

/** The first line of the receiver's answer, short enough for a table cell. */
function excerpt(body: string | null): string {
  if (!body) return '—'
  const line = body.trim().split('\n')[0] ?? ''
  return line.length > 60 ? `${line.slice(0, 60)}…` : line
}

/** A body as sent or received: scrollable, and reachable by keyboard so its overflow can be read. */
function BodyBlock({ label, children, testId }: { label: string; children: string; testId: string }) {
  return (
    <Box
      component="pre"
      tabIndex={0}
      aria-label={label}
      data-testid={testId}
      sx={{
        mt: 1,
        mb: 0,
        p: 1,
        maxHeight: 240,
        overflow: 'auto',
        bgcolor: 'action.hover',
        borderRadius: 1,
        fontSize: 13,
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
      }}
    >
      {children}
    </Box>
  )
}

/** The request's JSON laid out to be read; as sent when it is not JSON (it always is). */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

/** What was sent and what came back, for one delivery. */
function DeliveryDetails({ delivery, endpoint }: { delivery: WebhookDelivery; endpoint: WebhookEndpoint }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const attempt = delivery.last_attempt
  const pair = (label: string, value: string) => (
    <>
      <Box component="dt" sx={{ color: 'text.secondary' }}>
        {label}
      </Box>
      <Box component="dd" sx={{ m: 0, fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {value}
      </Box>
    </>
  )
  const list = { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ py: 1 }} data-testid="webhook-delivery-details">
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {t('admin.webhooks.deliveries.request')}
        </Typography>
        <Box component="dl" sx={list}>
          {pair(t('admin.webhooks.deliveries.postedTo'), endpoint.url)}
          {pair('webhook-id', delivery.event_id)}
          {pair(t('admin.webhooks.deliveries.event'), delivery.type)}
          {pair(t('admin.webhooks.deliveries.transaction'), delivery.transaction_id)}
          {pair(t('admin.webhooks.deliveries.sequence'), String(delivery.sequence))}
        </Box>
        <BodyBlock label={t('admin.webhooks.deliveries.requestBody')} testId="webhook-delivery-request-body">
          {readable(delivery.request_body)}
        </BodyBlock>
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {t('admin.webhooks.deliveries.answer')}
        </Typography>
        {attempt ? (
          <>
            <Box component="dl" sx={list}>
              {pair(t('admin.webhooks.deliveries.attemptedAt'), formatDateTime(attempt.attempted_at, locale))}
              {pair(t('admin.webhooks.deliveries.httpStatus'), attempt.status_code === null ? '—' : String(attempt.status_code))}
              {pair(t('admin.webhooks.deliveries.duration'), t('admin.webhooks.deliveries.ms', { ms: attempt.duration_ms }))}
              {attempt.error && pair(t('admin.webhooks.deliveries.error'), attempt.error)}
            </Box>
            <BodyBlock label={t('admin.webhooks.deliveries.answerBody')} testId="webhook-delivery-answer-body">
              {attempt.response_body ?? t('admin.webhooks.deliveries.noBody')}
            </BodyBlock>
          </>
        ) : (
          <Typography>{t('admin.webhooks.deliveries.notTried')}</Typography>
        )}
      </Box>
    </Stack>
  )
}

function DeliveryRow({
  delivery,
  endpoint,
  onReplay,
  replaying,
}: {
  delivery: WebhookDelivery
  endpoint: WebhookEndpoint
  onReplay: () => void
  replaying: boolean
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const [open, setOpen] = useState(false)
  const detailsId = useId()
  const attempt = delivery.last_attempt
  const when = delivery.delivered_at
    ? t('admin.webhooks.deliveries.deliveredAt', { date: formatDateTime(delivery.delivered_at, locale) })
    : delivery.next_attempt_at
      ? t('admin.webhooks.deliveries.nextAttemptAt', { date: formatDateTime(delivery.next_attempt_at, locale) })
      : null
  return (
    <>
      <TableRow data-testid="webhook-delivery-row" sx={open ? { '& > td': { borderBottom: 'none' } } : undefined}>
        <TableCell>
          {/* Event types are long single words: they may break anywhere rather than widen the table past the page. */}
          <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            {delivery.type}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('admin.webhooks.deliveries.sequenceNumber', { sequence: delivery.sequence })}
          </Typography>
        </TableCell>
        <TableCell>
          <Link
            component={RouterLink}
            to={routeTo('adminTransaction', { id: delivery.transaction_id })}
            sx={{ fontFamily: 'monospace', fontSize: 13 }}
          >
            {delivery.transaction_id.slice(0, 8)}
          </Link>
        </TableCell>
        <TableCell>
          <Chip
            size="small"
            variant="outlined"
            color={statusColour[delivery.status]}
            label={t(`admin.webhooks.deliveries.status.${delivery.status}`)}
            data-testid="webhook-delivery-status"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'nowrap' }}>
            {t('admin.webhooks.deliveries.attemptCount', { count: delivery.attempts })}
          </Typography>
        </TableCell>
        <TableCell align="right">{attempt?.status_code ?? '—'}</TableCell>
        <TableCell sx={{ fontFamily: 'monospace', fontSize: 13, minWidth: 120, overflowWrap: 'anywhere' }}>
          {attempt?.error ?? excerpt(attempt?.response_body ?? null)}
        </TableCell>
        <TableCell>
          {attempt ? (
            <Typography variant="body2">
              {t('admin.webhooks.deliveries.attemptWhen', {
                date: formatDateTime(attempt.attempted_at, locale),
                ms: attempt.duration_ms,
              })}
            </Typography>
          ) : (
            '—'
          )}
          {when && (
            <Typography variant="body2" color="text.secondary">
              {when}
            </Typography>
          )}
        </TableCell>
        <TableCell>
          <Stack spacing={1} sx={{ alignItems: 'flex-start', whiteSpace: 'nowrap' }}>
            <Button
              size="small"
              endIcon={open ? <ExpandLessIcon aria-hidden /> : <ExpandMoreIcon aria-hidden />}
              aria-expanded={open}
              aria-controls={detailsId}
              onClick={() => setOpen(!open)}
              data-testid="webhook-delivery-toggle"
            >
              {t('admin.webhooks.deliveries.show')}
            </Button>
            <BusyButton
              size="small"
              variant="outlined"
              busy={replaying}
              onClick={onReplay}
              aria-label={t('admin.webhooks.deliveries.replayLabel', { type: delivery.type, sequence: delivery.sequence })}
              data-testid="webhook-delivery-replay"
            >
              {t('admin.webhooks.deliveries.replay')}
            </BusyButton>
          </Stack>
        </TableCell>
      </TableRow>
      <TableRow id={detailsId} hidden={!open}>
        {open && (
          <TableCell colSpan={7}>
            <DeliveryDetails delivery={delivery} endpoint={endpoint} />
          </TableCell>
        )}
      </TableRow>
    </>
  )
}

/** A `datetime-local` field's value (the browser's local time) as the ISO instant the API takes. */
const localInstant = z
  .string()
  .min(1)
  .transform((value, context) => {
    const date = new Date(value)
    if (Number.isNaN(date.getTime())) {
      context.addIssue({ code: 'custom', message: 'not a date' })
      return z.NEVER
    }
    return date.toISOString()
  })
/** A `datetime-local` field's value for an instant, in the browser's time zone. */
function localInput(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`
}

/** Both instants, then the contract's own checks (from before to), reported on the field they name. */
const rangeFormSchema = z.object({ from: localInstant, to: localInstant }).transform((range, context) => {
  const parsed = webhookReplayBodySchema.safeParse(range)
  if (parsed.success) return parsed.data
  // The contract's only refusal of two instants is their order.
  for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: 'order', path: issue.path })
  return z.NEVER
})
type RangeForm = { from: string; to: string }

/** Replays every event of the client made in a time range: the server's other kind of replay. */
function ReplayRangeDialog({
  endpoint,
  replay,
  onClose,
}: {
  endpoint: WebhookEndpoint
  replay: (body: WebhookReplayBody) => Promise<void>
  onClose: () => void
}) {
  const { t } = useTranslation()
  // The last day, to the end of this minute (the fields have no seconds): what a receiver that was down usually missed.
  const [defaults] = useState(() => {
    const endOfMinute = Math.floor(Date.now() / 60_000) * 60_000 + 60_000
    return { from: localInput(new Date(endOfMinute - 86_400_000)), to: localInput(new Date(endOfMinute)) }
  })
  const form = useForm<RangeForm, unknown, WebhookReplayBody>({ resolver: zodResolver(rangeFormSchema), defaultValues: defaults })
  const errors = form.formState.errors
  const submit = form.handleSubmit(async (body) => {
    // The dialog closes at once: the deliveries section shows the progress and the result.
    onClose()
    await replay(body)
  })
  const field = (name: 'from' | 'to') => (
    <Controller
      control={form.control}
      name={name}
      render={({ field: input }) => (
        <TextField
          type="datetime-local"
          label={t(`admin.webhooks.replay.${name}`)}
          value={input.value}
          onChange={input.onChange}
          onBlur={input.onBlur}
          inputRef={input.ref}
          name={input.name}
          required
          error={errors[name] !== undefined}
          helperText={errors[name] && t(`admin.webhooks.replay.errors.${errors[name].message === 'order' ? 'order' : 'date'}`)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `webhook-replay-${name}` } }}
        />
      )}
    />
  )
  return (
    <FormDialog
      title={t('admin.webhooks.replay.title')}
      body={t('admin.webhooks.replay.body', { url: endpoint.url })}
      confirmLabel={t('admin.webhooks.replay.confirm')}
      cancelLabel={t('admin.webhooks.cancel')}
      onSubmit={submit}
      onClose={onClose}
      testId="webhook-replay-range"
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('from')}
        {field('to')}
      </Stack>
    </FormDialog>
  )
}

type ReplayOutcome = { kind: 'busy' } | { kind: 'done'; count: number } | { kind: 'failed'; message: string }

/** Where a replay stands: a live region, so a screen reader hears the result without moving focus. */
function ReplayStatus({ outcome }: { outcome: ReplayOutcome | null }) {
  const { t } = useTranslation()
  return (
    <Box role="status" aria-live="polite" data-testid="webhook-replay-status" sx={{ mb: outcome ? 2 : 0 }}>
      {outcome?.kind === 'busy' && (
        <Stack spacing={1}>
          <Typography>{t('admin.webhooks.replay.sending')}</Typography>
          <LinearProgress aria-label={t('admin.webhooks.replay.sending')} />
        </Stack>
      )}
      {outcome?.kind === 'done' && <Alert severity="success">{t('admin.webhooks.replay.done', { count: outcome.count })}</Alert>}
      {outcome?.kind === 'failed' && <Alert severity="error">{outcome.message}</Alert>}
    </Box>
  )
}

/** One endpoint's deliveries, newest first, a page at a time; each can be opened and sent again. */
export function WebhookDeliveries({ clientId, endpoint }: { clientId: string; endpoint: WebhookEndpoint }) {
  const { t } = useTranslation()
  const deliveries = useWebhookDeliveries(clientId, endpoint.id)
  const replay = useReplayWebhooks(clientId, endpoint.id)
  const [replayingId, setReplayingId] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<ReplayOutcome | null>(null)
  const [rangeOpen, setRangeOpen] = useState(false)
  const headingId = useId()
  const rows = deliveries.data?.pages.flat() ?? []

  /** Sends the events again and says, in place, how it went; the list follows the deliveries until they settle. */
  const send = async (body: WebhookReplayBody) => {
    setOutcome({ kind: 'busy' })
    try {
      const { replayed } = await replay.mutateAsync(body)
      setOutcome({ kind: 'done', count: replayed })
    } catch (error) {
      setOutcome({ kind: 'failed', message: errorMessage(t, error) })
    }
  }
  const replayOne = async (delivery: WebhookDelivery) => {
    setReplayingId(delivery.event_id)
    await send({ event_ids: [delivery.event_id] })
    setReplayingId(null)
  }

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 5 }} data-testid="webhook-deliveries">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1, mb: 2 }}>
        <Typography id={headingId} variant="h2" sx={{ fontSize: 20, fontWeight: 600, overflowWrap: 'anywhere' }}>
          {t('admin.webhooks.deliveries.title', { url: endpoint.url })}
        </Typography>
        <Button variant="outlined" onClick={() => setRangeOpen(true)} data-testid="webhook-replay-range-open">
          {t('admin.webhooks.replay.open')}
        </Button>
      </Stack>
      <ReplayStatus outcome={outcome} />
      {deliveries.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : deliveries.isError ? (
        <LoadErrorAlert error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : rows.length === 0 ? (
        <Typography data-testid="webhook-deliveries-empty">{t('admin.webhooks.deliveries.empty')}</Typography>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small">
              <caption>{t('admin.webhooks.deliveries.caption')}</caption>
              <TableHead>
                <TableRow>
                  <TableCell>{t('admin.webhooks.deliveries.event')}</TableCell>
                  <TableCell>{t('admin.webhooks.deliveries.transaction')}</TableCell>
                  <TableCell>{t('admin.webhooks.deliveries.state')}</TableCell>
                  <TableCell align="right">{t('admin.webhooks.deliveries.httpStatus')}</TableCell>
                  <TableCell>{t('admin.webhooks.deliveries.answer')}</TableCell>
                  <TableCell>{t('admin.webhooks.deliveries.attemptedAt')}</TableCell>
                  <TableCell>{t('admin.webhooks.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((delivery) => (
                  <DeliveryRow
                    key={delivery.event_id}
                    delivery={delivery}
                    endpoint={endpoint}
                    replaying={replayingId === delivery.event_id}
                    onReplay={() => void replayOne(delivery)}
                  />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {deliveries.hasNextPage && (
            <Button onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage} sx={{ mt: 2 }}>
              {t('admin.loadMore')}
            </Button>
          )}
        </>
      )}
      {rangeOpen && <ReplayRangeDialog endpoint={endpoint} replay={send} onClose={() => setRangeOpen(false)} />}
    </Box>
  )
}
