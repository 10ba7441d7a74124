import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import type { Transaction } from '@pactum/contracts/transactions'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import type { OnlineAction } from '@pactum/contracts/transactions'
import { CheckoutDialog, onlineCheckout } from './checkout-dialog.tsx'
import { EditTermsDialog } from './edit-terms-dialog.tsx'
import { useCarriers } from './transactions-api.ts'
import { useConfirmedAction } from './use-confirmed-action.ts'

/** The online actions that have a button here; the rest happen elsewhere (paying method inside checkout, admin calls). */
const buttonActions = [
  'pay',
  'track',
  'confirm_delivery',
  'complain_with_description',
  'submit_order_issue',
  'end_complaint_period',
  'accept_complaint',
  'update',
  'cancel',
] as const satisfies readonly OnlineAction[]
export type ButtonAction = (typeof buttonActions)[number]

/** The offered actions this page has a button for: the way forward first, cancelling last. */
export function buttonsFor(actions: readonly string[]): ButtonAction[] {
  return buttonActions.filter((action) => actions.includes(action))
}

/** The translation key of each action's texts (`transactionStatus.actions.<key>`). */
const textKey: Record<ButtonAction, string> = {
  pay: 'pay',
  track: 'track',
  confirm_delivery: 'confirm_delivery',
  complain_with_description: 'complain',
  submit_order_issue: 'submit_order_issue',
  end_complaint_period: 'end_complaint_period',
  accept_complaint: 'accept_complaint',
  update: 'update',
  cancel: 'cancel',
}

const testId = (action: ButtonAction) => `action-${textKey[action].replaceAll('_', '-')}`

const trackingCodePattern = /^[A-Za-z0-9-]{3,64}$/
const maxDescription = 1000

/** One button per permitted action; each opens its confirmation step. */
export function TransactionActions({ transaction, actions }: { transaction: Transaction; actions: ButtonAction[] }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<ButtonAction | null>(null)
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ flexWrap: 'wrap', gap: 1.5 }} data-testid="transaction-actions">
        {actions.map((action) => (
          <Button
            key={action}
            variant={action === 'cancel' || action === 'update' ? 'outlined' : 'contained'}
            color={action === 'cancel' ? 'error' : 'primary'}
            size="large"
            onClick={() => setOpen(action)}
            data-testid={testId(action)}
          >
            {action === 'update' ? t('transactionStatus.edit.button') : t(`transactionStatus.actions.${textKey[action]}.button`)}
          </Button>
        ))}
      </Stack>
      {open === 'pay' && <CheckoutDialog plan={onlineCheckout(transaction)} onClose={() => setOpen(null)} />}
      {open === 'update' && <EditTermsDialog transaction={transaction} onClose={() => setOpen(null)} />}
      {open !== null && open !== 'pay' && open !== 'update' && (
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
  action: Exclude<ButtonAction, 'pay' | 'update'>
  transaction: Transaction
  onClose: () => void
}) {
  const { t } = useTranslation()
  const confirmed = useConfirmedAction(transaction.id, 'online', onClose)
  const carriers = useCarriers(action === 'track')
  const [carrier, setCarrier] = useState('')
  const [trackingCode, setTrackingCode] = useState('')
  const [description, setDescription] = useState('')
  const [showErrors, setShowErrors] = useState(false)
  const base = `transactionStatus.actions.${textKey[action]}`
  const needsDescription = action === 'complain_with_description' || action === 'submit_order_issue'

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
    confirmed.send(action, body, t(`${base}.success`))
  }

  return (
    <ConfirmDialog
      open
      title={t(`${base}.title`)}
      body={t(bodyKey)}
      confirmLabel={t(`${base}.confirm`)}
      destructive={action === 'cancel' || action === 'accept_complaint'}
      busy={confirmed.busy}
      onConfirm={confirm}
      onClose={onClose}
      testId={`dialog-${textKey[action].replaceAll('_', '-')}`}
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
          slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': `${textKey[action].replaceAll('_', '-')}-description` } }}
          sx={{ mt: 1 }}
        />
      )}
    </ConfirmDialog>
  )
}
