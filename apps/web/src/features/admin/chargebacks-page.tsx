import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import FormControlLabel from '@mui/material/FormControlLabel'
import Link from '@mui/material/Link'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import {
  type AdminChargeback,
  chargebackActionBodySchema,
  type ChargebackListQuery,
  recoverChargebackBodySchema,
  sandboxDecideDisputeBodySchema,
} from '@pactum/contracts/chargebacks'
import type { Locale } from '@pactum/domain/locales'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Link as RouterLink } from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatMoney, parseMoneyInput } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useAdminChargebacks, useChargebackAction, useSandboxDecideDispute } from './admin-api.ts'
import { ReasonFields } from './reason-fields.tsx'

type State = ChargebackListQuery['state']
const states = ['open', 'closed', 'all'] as const satisfies readonly State[]

/** Evidence due in less than this is marked: the bank does not wait. */
export const dueSoonMs = 3 * 86_400_000

export function isDueSoon(chargeback: AdminChargeback, now: number = Date.now()): boolean {
  return (
    chargeback.status === 'needs_response' &&
    chargeback.evidence_due_by !== null &&
    new Date(chargeback.evidence_due_by).getTime() - now < dueSoonMs
  )
}

type ReasonForm = z.input<typeof chargebackActionBodySchema>
type DecideForm = z.input<typeof sandboxDecideDisputeBodySchema>

/** The recovery's form: the amount as typed (major units), checked against what may still be taken back. */
function recoverFormSchema(chargeback: AdminChargeback, locale: Locale) {
  return chargebackActionBodySchema.extend({ amount: z.string() }).superRefine((values, ctx) => {
    const parsed = parseMoneyInput(values.amount, chargeback.currency, locale)
    if (!parsed.ok || parsed.minor < 1) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'invalid' })
    else if (parsed.minor > chargeback.recoverable) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'tooMuch' })
  })
}
type RecoverForm = z.input<ReturnType<typeof recoverFormSchema>>

type Acting = { chargeback: AdminChargeback; action: 'evidence' | 'accept' | 'recover' | 'decide' }

/** The card disputes on sales (issue 34, decision 109): answer the bank, accept, recover from the seller. */
export function ChargebacksPage() {
  const { t } = useTranslation()
  const [state, setState] = useState<State>('open')
  const chargebacks = useAdminChargebacks(state)
  return (
    <>
      <PageHeader title={t('admin.chargebacks.title')} intro={t('admin.chargebacks.intro')} />
      <Stack direction="row" spacing={2} sx={{ mb: 3 }}>
        <TextField
          select
          label={t('admin.chargebacks.state')}
          value={state}
          onChange={(event) => setState(event.target.value as State)}
          sx={{ minWidth: 200 }}
          slotProps={{ htmlInput: { 'data-testid': 'chargebacks-state' } }}
        >
          {states.map((option) => (
            <MenuItem key={option} value={option}>
              {t(`admin.chargebacks.states.${option}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {chargebacks.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : chargebacks.isError ? (
        <LoadErrorAlert error={chargebacks.error} onRetry={() => void chargebacks.refetch()} />
      ) : (
        <ChargebackTable chargebacks={chargebacks.data} />
      )}
    </>
  )
}

function ChargebackTable({ chargebacks }: { chargebacks: AdminChargeback[] }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const [acting, setActing] = useState<Acting | null>(null)
  if (chargebacks.length === 0) {
    return (
      <Alert severity="info" data-testid="chargebacks-empty">
        {t('admin.chargebacks.empty')}
      </Alert>
    )
  }
  const money = (amount: number, currency: string) => formatMoney(amount, currency, locale)
  return (
    <>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t('admin.chargebacks.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('admin.chargebacks.columns.sale')}</TableCell>
              <TableCell align="right">{t('admin.chargebacks.columns.amount')}</TableCell>
              <TableCell>{t('admin.chargebacks.columns.reason')}</TableCell>
              <TableCell>{t('admin.chargebacks.columns.status')}</TableCell>
              <TableCell>{t('admin.chargebacks.columns.evidenceDueBy')}</TableCell>
              <TableCell align="right">{t('admin.chargebacks.columns.fee')}</TableCell>
              <TableCell align="right">{t('admin.chargebacks.columns.recovered')}</TableCell>
              <TableCell>{t('admin.chargebacks.columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {chargebacks.map((chargeback) => (
              <TableRow key={chargeback.id} data-testid="chargeback-row">
                <TableCell>
                  <Link component={RouterLink} to={routeTo('adminTransaction', { id: chargeback.transaction_id })}>
                    {chargeback.description}
                  </Link>
                  <Typography variant="caption" component="div" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {chargeback.id}
                  </Typography>
                </TableCell>
                <TableCell align="right">{money(chargeback.amount, chargeback.currency)}</TableCell>
                <TableCell>{chargeback.reason}</TableCell>
                <TableCell>
                  <Stack spacing={0.5}>
                    <span>{t(`admin.chargebacks.statuses.${chargeback.status}`)}</span>
                    {chargeback.frozen && (
                      <Chip size="small" color="primary" label={t('admin.chargebacks.frozen')} sx={{ alignSelf: 'start' }} />
                    )}
                  </Stack>
                </TableCell>
                <TableCell>
                  {chargeback.evidence_due_by === null ? (
                    t('admin.chargebacks.noDeadline')
                  ) : (
                    <Stack spacing={0.5}>
                      <span>{formatDateTime(chargeback.evidence_due_by, locale)}</span>
                      {isDueSoon(chargeback) && (
                        <Chip
                          size="small"
                          color="error"
                          label={t('admin.chargebacks.dueSoon')}
                          sx={{ alignSelf: 'start' }}
                          data-testid="chargeback-due-soon"
                        />
                      )}
                    </Stack>
                  )}
                </TableCell>
                <TableCell align="right">
                  {chargeback.fee ? money(chargeback.fee.amount, chargeback.fee.currency) : t('admin.chargebacks.noFee')}
                </TableCell>
                <TableCell align="right">
                  {money(chargeback.recovered, chargeback.currency)} / {money(chargeback.recoverable, chargeback.currency)}
                </TableCell>
                <TableCell>
                  <Stack spacing={1} sx={{ alignItems: 'start' }}>
                    {chargeback.status === 'needs_response' && (
                      <Button size="small" variant="outlined" onClick={() => setActing({ chargeback, action: 'evidence' })}>
                        {t('admin.chargebacks.evidence.action')}
                      </Button>
                    )}
                    {chargeback.closed_at === null && (
                      <Button size="small" variant="outlined" onClick={() => setActing({ chargeback, action: 'accept' })}>
                        {t('admin.chargebacks.accept.action')}
                      </Button>
                    )}
                    {chargeback.recoverable > 0 && (
                      <Button size="small" variant="outlined" onClick={() => setActing({ chargeback, action: 'recover' })}>
                        {t('admin.chargebacks.recover.action')}
                      </Button>
                    )}
                    {chargeback.closed_at === null && (
                      <Button size="small" variant="outlined" onClick={() => setActing({ chargeback, action: 'decide' })}>
                        {t('admin.chargebacks.decide.action')}
                      </Button>
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {acting?.action === 'recover' ? (
        <RecoverDialog chargeback={acting.chargeback} onClose={() => setActing(null)} />
      ) : acting?.action === 'decide' ? (
        <DecideDialog chargeback={acting.chargeback} onClose={() => setActing(null)} />
      ) : acting ? (
        <ReasonDialog chargeback={acting.chargeback} action={acting.action} onClose={() => setActing(null)} />
      ) : null}
    </>
  )
}

/** Sending the evidence or accepting the loss: each records why. */
function ReasonDialog({
  chargeback,
  action,
  onClose,
}: {
  chargeback: AdminChargeback
  action: 'evidence' | 'accept'
  onClose: () => void
}) {
  const { t } = useTranslation()
  const mutation = useChargebackAction(chargeback.id)
  const form = useForm<ReasonForm>({ resolver: zodResolver(chargebackActionBodySchema), defaultValues: { reason: '' } })
  const reasonError = form.formState.errors.reason ? t('admin.chargebacks.reasonRequired') : undefined
  const confirm = form.handleSubmit(async (body) => {
    await mutation.mutateAsync({ type: action, body }).then(onClose, () => undefined)
  })
  return (
    <ConfirmDialog
      open
      title={t(`admin.chargebacks.${action}.title`)}
      body={<Typography>{t(`admin.chargebacks.${action}.body`, { sale: chargeback.description })}</Typography>}
      confirmLabel={t(`admin.chargebacks.${action}.confirm`)}
      destructive={action === 'accept'}
      busy={mutation.isPending}
      onConfirm={() => void confirm()}
      onClose={onClose}
      testId={`chargeback-${action}-dialog`}
    >
      <ReasonFields
        field={form.register('reason')}
        label={t('admin.chargebacks.reason')}
        hint={t('admin.chargebacks.reasonHint')}
        error={reasonError}
        failure={mutation.error}
        testId="chargeback-reason"
      />
    </ConfirmDialog>
  )
}

function RecoverDialog({ chargeback, onClose }: { chargeback: AdminChargeback; onClose: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const mutation = useChargebackAction(chargeback.id)
  const form = useForm<RecoverForm>({
    resolver: zodResolver(recoverFormSchema(chargeback, locale)),
    defaultValues: { reason: '', amount: '' },
  })
  const recoverable = formatMoney(chargeback.recoverable, chargeback.currency, locale)
  const reasonError = form.formState.errors.reason ? t('admin.chargebacks.reasonRequired') : undefined
  const amountError = form.formState.errors.amount
  const confirm = form.handleSubmit(async ({ reason, amount }) => {
    const parsed = parseMoneyInput(amount, chargeback.currency, locale)
    if (!parsed.ok) return
    const body = recoverChargebackBodySchema.parse({ reason, amount: parsed.minor })
    await mutation.mutateAsync({ type: 'recover', body }).then(onClose, () => undefined)
  })
  return (
    <ConfirmDialog
      open
      title={t('admin.chargebacks.recover.title')}
      body={<Typography>{t('admin.chargebacks.recover.body', { sale: chargeback.description, recoverable })}</Typography>}
      confirmLabel={t('admin.chargebacks.recover.confirm')}
      destructive
      busy={mutation.isPending}
      onConfirm={() => void confirm()}
      onClose={onClose}
      testId="chargeback-recover-dialog"
    >
      <Stack spacing={2}>
        <TextField
          label={t('admin.chargebacks.recover.amount')}
          required
          {...form.register('amount')}
          error={!!amountError}
          helperText={
            amountError
              ? amountError.message === 'tooMuch'
                ? t('admin.chargebacks.recover.tooMuch', { recoverable })
                : t('admin.chargebacks.recover.invalid')
              : t('admin.chargebacks.recover.amountHint', { recoverable })
          }
          slotProps={{ htmlInput: { 'data-testid': 'chargeback-recover-amount', inputMode: 'decimal' } }}
        />
        <ReasonFields
          field={form.register('reason')}
          label={t('admin.chargebacks.reason')}
          hint={t('admin.chargebacks.reasonHint')}
          error={reasonError}
          failure={mutation.error}
          testId="chargeback-reason"
        />
      </Stack>
    </ConfirmDialog>
  )
}

/** The sandbox's card network deciding: only the sandbox provider has it (404 otherwise). */
function DecideDialog({ chargeback, onClose }: { chargeback: AdminChargeback; onClose: () => void }) {
  const { t } = useTranslation()
  const mutation = useSandboxDecideDispute(chargeback.id)
  const form = useForm<DecideForm>({ resolver: zodResolver(sandboxDecideDisputeBodySchema), defaultValues: { outcome: 'won' } })
  const confirm = form.handleSubmit(async (body) => {
    await mutation.mutateAsync(body).then(onClose, () => undefined)
  })
  const notAvailable = mutation.error instanceof ApiError && mutation.error.status === 404
  return (
    <ConfirmDialog
      open
      title={t('admin.chargebacks.decide.title')}
      body={<Typography>{t('admin.chargebacks.decide.body', { sale: chargeback.description })}</Typography>}
      confirmLabel={t('admin.chargebacks.decide.confirm')}
      busy={mutation.isPending}
      confirmDisabled={notAvailable}
      onConfirm={() => void confirm()}
      onClose={onClose}
      testId="chargeback-decide-dialog"
    >
      <Stack spacing={2}>
        {notAvailable ? (
          <Alert severity="info" data-testid="chargeback-decide-unavailable">
            {t('admin.chargebacks.decide.unavailable')}
          </Alert>
        ) : (
          mutation.error !== null && <Alert severity="error">{errorMessage(t, mutation.error)}</Alert>
        )}
        <Controller
          control={form.control}
          name="outcome"
          render={({ field }) => (
            <RadioGroup {...field} aria-label={t('admin.chargebacks.decide.outcome')}>
              <FormControlLabel value="won" control={<Radio />} label={t('admin.chargebacks.decide.won')} />
              <FormControlLabel value="lost" control={<Radio />} label={t('admin.chargebacks.decide.lost')} />
            </RadioGroup>
          )}
        />
      </Stack>
    </ConfirmDialog>
  )
}
