import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { creatorCancellationDescription, type F2fAction, type F2fTransaction } from '@pactum/contracts/f2f-transactions'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { CheckoutDialog, depositCheckout, remainderCheckout } from './checkout-dialog.tsx'
import { EditTermsDialog } from './edit-terms-dialog.tsx'
import { SetPriceDialog } from './set-price-dialog.tsx'
import { useConfirmedAction } from './use-confirmed-action.ts'

/** The face-to-face actions that have a button here, in the order they are shown. */
const buttonActions = [
  'pay_deposit',
  'accept_deposit',
  'set_price',
  'skip_remainder',
  'pay_remainder',
  'confirm_handover',
  'complain',
  'end_complaint_period',
  'accept_complaint',
  'update',
  'cancel_with_description',
] as const satisfies readonly F2fAction[]
export type F2fButtonAction = (typeof buttonActions)[number]

/** The offered actions this page has a button for: the way forward first, cancelling last. */
export function f2fButtonsFor(actions: readonly string[]): F2fButtonAction[] {
  return buttonActions.filter((action) => actions.includes(action))
}

/** Confirmation steps (spec §4: deposit, handover, f-complain) that only post. */
type PostAction = Exclude<F2fButtonAction, 'pay_deposit' | 'pay_remainder' | 'set_price' | 'update'>

const testId = (action: F2fButtonAction) => `action-${action.replaceAll('_', '-')}`
const destructive = new Set<F2fButtonAction>(['cancel_with_description', 'accept_complaint'])
const maxDescription = 1000

/** One button per action the server offers; each opens its confirmation step or checkout. */
export function F2fActions({ transaction, actions }: { transaction: F2fTransaction; actions: F2fButtonAction[] }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<F2fButtonAction | null>(null)
  const close = () => setOpen(null)
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ flexWrap: 'wrap', gap: 1.5 }} data-testid="transaction-actions">
        {actions.map((action) => (
          <Button
            key={action}
            variant={destructive.has(action) || action === 'update' ? 'outlined' : 'contained'}
            color={destructive.has(action) ? 'error' : 'primary'}
            size="large"
            onClick={() => setOpen(action)}
            data-testid={testId(action)}
          >
            {action === 'update' ? t('transactionStatus.edit.button') : t(`transactionStatus.f2fActions.${action}.button`)}
          </Button>
        ))}
      </Stack>
      {open === 'pay_deposit' && <CheckoutDialog plan={depositCheckout(transaction)} onClose={close} />}
      {open === 'pay_remainder' && <CheckoutDialog plan={remainderCheckout(transaction)} onClose={close} />}
      {open === 'set_price' && <SetPriceDialog transaction={transaction} onClose={close} />}
      {open === 'update' && <EditTermsDialog transaction={transaction} onClose={close} />}
      {open !== null && open !== 'pay_deposit' && open !== 'pay_remainder' && open !== 'set_price' && open !== 'update' && (
        <PostDialog action={open} transaction={transaction} onClose={close} />
      )}
    </>
  )
}

/**
 * The fixed text a cancellation sends (spec §4): the creator's is "cancelled
 * by creator"; the other party's names their role the same way.
 */
function cancellationText(transaction: F2fTransaction): string {
  return transaction.role === transaction.creator_role || transaction.role === null ? creatorCancellationDescription : `cancelled by ${transaction.role}`
}

/** Which body explains the step best for this viewer and state. */
function bodyKey(action: PostAction, transaction: F2fTransaction): string {
  const base = `transactionStatus.f2fActions.${action}`
  if (action === 'cancel_with_description') {
    const depositHeld = transaction.deposit_paid !== null && transaction.status !== 'joined' && transaction.status !== 'created'
    return depositHeld ? `${base}.bodyDeposit` : `${base}.body`
  }
  if (action === 'confirm_handover') {
    if (transaction.role === 'seller') return `${base}.bodySeller`
    return transaction.show_seller_confirm_handover ? `${base}.bodyBuyerFirst` : `${base}.bodyBuyer`
  }
  return `${base}.body`
}

function PostDialog({ action, transaction, onClose }: { action: PostAction; transaction: F2fTransaction; onClose: () => void }) {
  const { t } = useTranslation()
  const confirmed = useConfirmedAction(transaction.id, 'f2f', onClose)
  const [description, setDescription] = useState('')
  const [showErrors, setShowErrors] = useState(false)
  const base = `transactionStatus.f2fActions.${action}`
  const needsDescription = action === 'complain'
  const descriptionError = description.trim() === '' ? t('transactionStatus.actions.descriptionRequired') : undefined

  const body = needsDescription
    ? { description: description.trim() }
    : action === 'cancel_with_description'
      ? { description: cancellationText(transaction) }
      : {}

  const confirm = () => {
    if (needsDescription && descriptionError) {
      setShowErrors(true)
      return
    }
    confirmed.send(action, body, t(`${base}.success`))
  }

  return (
    <ConfirmDialog
      open
      title={t(`${base}.title`)}
      body={t(bodyKey(action, transaction))}
      confirmLabel={t(`${base}.confirm`)}
      destructive={destructive.has(action)}
      busy={confirmed.busy}
      onConfirm={confirm}
      onClose={onClose}
      testId={`dialog-${action.replaceAll('_', '-')}`}
    >
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
          slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': 'complain-description' } }}
          sx={{ mt: 1 }}
        />
      )}
    </ConfirmDialog>
  )
}
