import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { sandboxOpenDisputeBodySchema } from '@pactum/contracts/chargebacks'
import type { Locale } from '@pactum/domain/locales'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { z } from 'zod'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatMoney, parseMoneyInput } from '../../lib/money.ts'
import { useSandboxOpenDispute } from './admin-api.ts'

type Payment = z.infer<typeof sandboxOpenDisputeBodySchema>['payment']
type NetworkReason = z.infer<typeof sandboxOpenDisputeBodySchema>['reason']
const networkReasons = sandboxOpenDisputeBodySchema.shape.reason.unwrap().options

/** A payment the sale took, as its hold in the ledger shows it: which part and how much. */
interface HeldPayment {
  payment: Payment
  amount: number
}

/** The payments a dispute can be opened on: each part the escrow held (the online payment, or the deposit and the remainder). */
export function heldPayments(detail: AdminTransactionDetail): HeldPayment[] {
  const escrow = `escrow:${detail.transaction.id}`
  return detail.ledger_entries.flatMap((entry) => {
    if (entry.kind !== 'hold' || (entry.part !== 'payment' && entry.part !== 'deposit' && entry.part !== 'remainder')) return []
    const amount = entry.postings.find((posting) => posting.account === escrow)?.amount ?? 0
    return amount > 0 ? [{ payment: entry.part, amount }] : []
  })
}

/** The form: the amount as typed (major units, empty for the whole payment), at most what that payment was. */
function openDisputeFormSchema(payments: HeldPayment[], currency: string, locale: Locale) {
  return sandboxOpenDisputeBodySchema
    .pick({ payment: true, reason: true })
    .extend({ amount: z.string() })
    .superRefine((values, ctx) => {
      if (values.amount.trim() === '') return
      const parsed = parseMoneyInput(values.amount, currency, locale)
      const paid = payments.find((held) => held.payment === values.payment)?.amount ?? 0
      if (!parsed.ok || parsed.minor < 1) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'invalid' })
      else if (parsed.minor > paid) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'tooMuch' })
    })
}
type OpenDisputeForm = z.input<ReturnType<typeof openDisputeFormSchema>>

/**
 * The sandbox's part of the card networks (docs/sandbox.md): the buyer's
 * bank opens a dispute on one of the sale's payments. Nothing tells the web
 * which provider the server runs, so the panel is always there and a real
 * provider's 404 is answered in words.
 */
export function SandboxDisputePanel({ detail }: { detail: AdminTransactionDetail }) {
  const { t } = useTranslation()
  const [opening, setOpening] = useState(false)
  const payments = heldPayments(detail)
  if (payments.length === 0 || detail.transaction.chargeback !== null) return null
  return (
    <Paper variant="outlined" component="section" sx={{ p: 2, mt: 3 }} data-testid="admin-sandbox-dispute">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('admin.sandboxDispute.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {t('admin.sandboxDispute.intro')}
      </Typography>
      <Button variant="outlined" onClick={() => setOpening(true)} data-testid="admin-sandbox-dispute-open">
        {t('admin.sandboxDispute.button')}
      </Button>
      {opening && <SandboxDisputeDialog detail={detail} payments={payments} onClose={() => setOpening(false)} />}
    </Paper>
  )
}

function SandboxDisputeDialog({
  detail,
  payments,
  onClose,
}: {
  detail: AdminTransactionDetail
  payments: HeldPayment[]
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const toast = useToast()
  const { transaction } = detail
  const mutation = useSandboxOpenDispute()
  const form = useForm<OpenDisputeForm>({
    resolver: zodResolver(openDisputeFormSchema(payments, transaction.currency, locale)),
    defaultValues: { payment: payments[0]?.payment ?? 'payment', reason: 'fraudulent' satisfies NetworkReason, amount: '' },
  })
  const payment = form.watch('payment')
  const paid = formatMoney(payments.find((held) => held.payment === payment)?.amount ?? 0, transaction.currency, locale)
  const amountError = form.formState.errors.amount
  const notAvailable = mutation.error instanceof ApiError && mutation.error.status === 404
  const confirm = form.handleSubmit(async (values) => {
    const parsed = values.amount.trim() === '' ? null : parseMoneyInput(values.amount, transaction.currency, locale)
    if (parsed && !parsed.ok) return
    const body = sandboxOpenDisputeBodySchema.parse({
      transaction_id: transaction.id,
      payment: values.payment,
      reason: values.reason,
      ...(parsed ? { amount: parsed.minor } : {}),
    })
    await mutation.mutateAsync(body).then(
      () => {
        onClose()
        toast.show(t('admin.sandboxDispute.opened'), { severity: 'success' })
      },
      () => undefined,
    )
  })
  return (
    <ConfirmDialog
      open
      title={t('admin.sandboxDispute.dialogTitle')}
      body={<Typography>{t('admin.sandboxDispute.body', { sale: transaction.description })}</Typography>}
      confirmLabel={t('admin.sandboxDispute.confirm')}
      busy={mutation.isPending}
      confirmDisabled={notAvailable}
      onConfirm={() => void confirm()}
      onClose={onClose}
      testId="admin-sandbox-dispute-dialog"
    >
      <Stack spacing={2}>
        {notAvailable ? (
          <Alert severity="info" data-testid="admin-sandbox-dispute-unavailable">
            {t('admin.sandboxDispute.unavailable')}
          </Alert>
        ) : (
          mutation.error !== null && <Alert severity="error">{errorMessage(t, mutation.error)}</Alert>
        )}
        {payments.length > 1 && (
          <Controller
            control={form.control}
            name="payment"
            render={({ field }) => (
              <TextField
                select
                label={t('admin.sandboxDispute.payment')}
                {...field}
                slotProps={{ htmlInput: { 'data-testid': 'admin-sandbox-dispute-payment' } }}
              >
                {payments.map((held) => (
                  <MenuItem key={held.payment} value={held.payment}>
                    {t(`admin.sandboxDispute.payments.${held.payment}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        )}
        <TextField
          label={t('admin.sandboxDispute.amount')}
          {...form.register('amount')}
          error={!!amountError}
          helperText={
            amountError
              ? amountError.message === 'tooMuch'
                ? t('admin.sandboxDispute.tooMuch', { paid })
                : t('admin.sandboxDispute.invalid')
              : t('admin.sandboxDispute.amountHint', { paid })
          }
          slotProps={{ htmlInput: { 'data-testid': 'admin-sandbox-dispute-amount', inputMode: 'decimal' } }}
        />
        <Controller
          control={form.control}
          name="reason"
          render={({ field }) => (
            <TextField
              select
              label={t('admin.sandboxDispute.reason')}
              helperText={t('admin.sandboxDispute.reasonHint')}
              {...field}
              slotProps={{ htmlInput: { 'data-testid': 'admin-sandbox-dispute-reason' } }}
            >
              {networkReasons.map((reason) => (
                <MenuItem key={reason} value={reason}>
                  {reason}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Stack>
    </ConfirmDialog>
  )
}
