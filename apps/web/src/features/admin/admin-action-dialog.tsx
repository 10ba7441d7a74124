import { zodResolver } from '@hookform/resolvers/zod'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { adminReleaseFormSchema } from '@pactum/contracts/admin'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import type { z } from 'zod'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { type AdminAction, useAdminAction } from './admin-api.ts'
import { ReasonFields } from './reason-fields.tsx'

type ReasonForm = z.input<typeof adminReleaseFormSchema>

export interface AdminActionDialogProps {
  transactionId: string
  action: AdminAction
  /** What the action will move, already formatted ("€103.40"), as the escrow holds it. */
  amount: string
  /** The e-mail of the person the money goes to (or who is taken to have received the item). */
  recipient: string
  onClose: () => void
  onDone: () => void
}

function actionKey(action: AdminAction): string {
  if (action.type === 'confirm_delivery') return 'confirmDelivery'
  if (action.type === 'decide') return 'decide'
  if (action.type === 'clear_fraud_warning') return 'clearFraudWarning'
  return action.to === 'seller' ? 'releaseToSeller' : 'refundBuyer'
}

/**
 * The confirmation step of an admin action: it says what will happen, to
 * whom and for how much, and will not go on without a reason (the engine
 * keeps it in the audit trail with who acted and when).
 */
export function AdminActionDialog({ transactionId, action, amount, recipient, onClose, onDone }: AdminActionDialogProps) {
  const { t } = useTranslation()
  const key = actionKey(action)
  const [idempotencyKey] = useState(() => crypto.randomUUID())
  const mutation = useAdminAction(transactionId)
  const form = useForm<ReasonForm>({ resolver: zodResolver(adminReleaseFormSchema), defaultValues: { reason: '' } })
  const reasonError = form.formState.errors.reason ? t('admin.actions.reasonRequired') : undefined
  const confirm = form.handleSubmit(async ({ reason }) => {
    await mutation.mutateAsync({ action, reason, idempotencyKey }).then(onDone, () => undefined)
  })
  return (
    <ConfirmDialog
      open
      title={t(`admin.actions.${key}.title`)}
      body={
        <Stack spacing={1}>
          <Typography data-testid="admin-action-summary">{t(`admin.actions.${key}.summary`, { amount, recipient })}</Typography>
          {/* The parties never hear of a fraud warning (decision 109), so clearing one tells no one. */}
          <Typography variant="body2">
            {action.type === 'clear_fraud_warning' ? t('admin.actions.clearFraudWarning.final') : t('admin.actions.final')}
          </Typography>
        </Stack>
      }
      confirmLabel={t(`admin.actions.${key}.confirm`)}
      destructive={action.type === 'release_funds' || action.type === 'decide'}
      busy={mutation.isPending}
      onConfirm={() => void confirm()}
      onClose={onClose}
      testId="admin-action-dialog"
    >
      <ReasonFields
        field={form.register('reason')}
        label={t('admin.actions.reason')}
        hint={t('admin.actions.reasonHint')}
        error={reasonError}
        failure={mutation.error}
        testId="admin-action-reason"
      />
    </ConfirmDialog>
  )
}
