import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import type { Transaction } from '@pactum/contracts/transactions'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import type { TransactionAction } from './available-actions.ts'
import { CheckoutDialog } from './checkout-dialog.tsx'
import { useCarriers, useTransactionAction } from './transactions-api.ts'

/** The API path segment of each action. */
const endpoint: Record<Exclude<TransactionAction, 'pay'>, string> = {
  track: 'track',
  confirm_delivery: 'confirm_delivery',
  complain: 'complain_with_description',
  submit_order_issue: 'submit_order_issue',
  end_complaint_period: 'end_complaint_period',
  accept_complaint: 'accept_complaint',
  cancel: 'cancel',
}

const testIds: Record<TransactionAction, string> = {
  pay: 'action-pay',
  track: 'action-track',
  confirm_delivery: 'action-confirm-delivery',
  complain: 'action-complain',
  submit_order_issue: 'action-submit-order-issue',
  end_complaint_period: 'action-end-complaint-period',
  accept_complaint: 'action-accept-complaint',
  cancel: 'action-cancel',
}

const trackingCodePattern = /^[A-Za-z0-9-]{3,64}$/
const maxDescription = 1000

/** One button per permitted action; each opens its confirmation step. */
export function TransactionActions({ transaction, actions }: { transaction: Transaction; actions: TransactionAction[] }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<TransactionAction | null>(null)
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ flexWrap: 'wrap', gap: 1.5 }} data-testid="transaction-actions">
        {actions.map((action) => (
          <Button
            key={action}
            variant={action === 'cancel' ? 'outlined' : 'contained'}
            color={action === 'cancel' ? 'error' : 'primary'}
            size="large"
            onClick={() => setOpen(action)}
            data-testid={testIds[action]}
          >
            {t(`transactionStatus.actions.${action}.button`)}
          </Button>
        ))}
      </Stack>
      {open === 'pay' && <CheckoutDialog transaction={transaction} onClose={() => setOpen(null)} />}
      {open !== null && open !== 'pay' && (
        <ActionDialog action={open} transaction={transaction} onClose={() => setOpen(null)} />
      )}
    </>
  )
}

function ActionDialog({
  action,
  transaction,
  onClose,
}: {
  action: Exclude<TransactionAction, 'pay'>
  transaction: Transaction
  onClose: () => void
}) {
  const { t } = useTranslation()
  const result = useResultModal()
  const mutation = useTransactionAction(transaction.id)
  const carriers = useCarriers(action === 'track')
  const [carrier, setCarrier] = useState('')
  const [trackingCode, setTrackingCode] = useState('')
  const [description, setDescription] = useState('')
  const [showErrors, setShowErrors] = useState(false)
  const [idempotencyKey] = useState(() => crypto.randomUUID())
  const base = `transactionStatus.actions.${action}`
  const needsDescription = action === 'complain' || action === 'submit_order_issue'

  const carrierError = carrier === '' ? t('transactionStatus.actions.track.carrierRequired') : undefined
  const codeError = !trackingCodePattern.test(trackingCode.trim())
    ? t('transactionStatus.actions.track.codeInvalid')
    : undefined
  const descriptionError = description.trim() === '' ? t('transactionStatus.actions.descriptionRequired') : undefined
  const invalid = action === 'track' ? !!(carrierError || codeError) : needsDescription ? !!descriptionError : false

  const body =
    action === 'track'
      ? { carrier, tracking_code: trackingCode.trim() }
      : needsDescription
        ? { description: description.trim() }
        : {}

  // Seller cancelling after payment refunds the buyer: say so in the dialog.
  const bodyKey =
    action === 'cancel' && transaction.status === 'paid' ? 'transactionStatus.actions.cancel.bodyRefund' : `${base}.body`

  const confirm = () => {
    if (invalid) {
      setShowErrors(true)
      return
    }
    mutation.mutate(
      { action: endpoint[action], body, idempotencyKey },
      {
        onSuccess: () => {
          onClose()
          result.showSuccess(t(`${base}.success`))
        },
        onError: (error) => {
          onClose()
          result.showError(errorMessage(t, error))
        },
      },
    )
  }

  return (
    <ConfirmDialog
      open
      title={t(`${base}.title`)}
      body={t(bodyKey)}
      confirmLabel={t(`${base}.confirm`)}
      destructive={action === 'cancel' || action === 'accept_complaint'}
      busy={mutation.isPending}
      onConfirm={confirm}
      onClose={onClose}
      testId={`dialog-${action.replaceAll('_', '-')}`}
    >
      {action === 'track' && (
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label={t('transactionStatus.actions.track.carrierLabel')}
            value={carrier}
            onChange={(event) => setCarrier(event.target.value)}
            required
            error={showErrors && !!carrierError}
            helperText={
              carriers.isError ? errorMessage(t, carriers.error) : showErrors ? carrierError : undefined
            }
            disabled={carriers.isPending}
            slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'carrier-select' } }}
          >
            <option value="">{carriers.isPending ? t('app.loading') : t('transactionStatus.actions.track.carrierPlaceholder')}</option>
            {(carriers.data ?? []).map((option) => (
              <option key={option.slug} value={option.slug}>
                {option.name}
              </option>
            ))}
          </TextField>
          <TextField
            label={t('transactionStatus.actions.track.codeLabel')}
            value={trackingCode}
            onChange={(event) => setTrackingCode(event.target.value)}
            required
            error={showErrors && !!codeError}
            helperText={showErrors && codeError ? codeError : t('transactionStatus.actions.track.codeHint')}
            slotProps={{ htmlInput: { maxLength: 64, 'data-testid': 'tracking-code-input', autoCapitalize: 'characters' } }}
          />
        </Stack>
      )}
      {needsDescription && (
        <TextField
          label={t(`${base}.descriptionLabel`)}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          required
          multiline
          minRows={3}
          fullWidth
          error={showErrors && !!descriptionError}
          helperText={showErrors && descriptionError ? descriptionError : undefined}
          slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': `${action.replaceAll('_', '-')}-description` } }}
          sx={{ mt: 1 }}
        />
      )}
    </ConfirmDialog>
  )
}
