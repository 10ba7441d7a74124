import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import { type ComplaintReason, complaintReasons } from '@pactum/domain/transactions/dispute-case'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { TransactionActionEntry, TransactionActionName } from '@pactum/contracts/transaction-actions'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { actionTestId, actionTexts, bodyKey } from './action-texts.ts'
import { type Tracking, TrackingFields, trackingErrors } from './tracking-fields.tsx'
import { useConfirmedAction } from './use-confirmed-action.ts'

const maxDescription = 1000
/** What the buyer may give the seller at a time, in days (the API takes hours, at most 14 days). */
const extensionDays = [1, 2, 3, 7, 14] as const

/**
 * The confirmation step of a catalogue action that only posts: its texts,
 * what the entry asks for (a description, the tracking), the body it sends
 * (asked for, preset, or none), and Success! or the error once confirmed.
 */
export function ActionDialog({
  name,
  entry,
  transaction,
  onClose,
}: {
  name: TransactionActionName
  entry: TransactionActionEntry
  transaction: AnyTransaction
  onClose: () => void
}) {
  const { t } = useTranslation()
  const confirmed = useConfirmedAction(transaction.id, transaction.type, onClose)
  const [description, setDescription] = useState('')
  const [reason, setReason] = useState<ComplaintReason>('damaged')
  const [extraDays, setExtraDays] = useState<number>(3)
  const [tracking, setTracking] = useState<Tracking>({ carrier: '', trackingCode: '' })
  const [showErrors, setShowErrors] = useState(false)
  const route = entry[transaction.type]
  const base = actionTexts(transaction, name)
  const testId = actionTestId(name)
  const descriptionError = description.trim() === '' ? t('transactionStatus.actions.descriptionRequired') : undefined
  const describes = entry.asks === 'description' || entry.asks === 'complaint'
  const invalid = entry.asks === 'tracking' ? Object.keys(trackingErrors(tracking, t)).length > 0 : describes && !!descriptionError

  const body = (): object => {
    if (entry.asks === 'tracking') return { carrier: tracking.carrier, tracking_code: tracking.trackingCode.trim() }
    if (entry.asks === 'description') return { description: description.trim() }
    if (entry.asks === 'complaint') return { description: description.trim(), reason }
    if (entry.asks === 'extension') return { hours: extraDays * 24 }
    return route?.presetBody ? route.presetBody(transaction) : {}
  }

  const confirm = () => {
    if (!route) return
    if (invalid) {
      setShowErrors(true)
      return
    }
    confirmed.send(route.path, body(), t(`${base}.success`))
  }

  return (
    <ConfirmDialog
      open
      title={t(`${base}.title`)}
      body={t(bodyKey(name, transaction))}
      confirmLabel={t(`${base}.confirm`)}
      destructive={entry.destructive === true}
      busy={confirmed.busy}
      onConfirm={confirm}
      onClose={onClose}
      testId={`dialog-${testId}`}
    >
      {entry.asks === 'tracking' && <TrackingFields tracking={tracking} onChange={setTracking} showErrors={showErrors} />}
      {entry.asks === 'complaint' && (
        <TextField
          select
          label={t('transactionStatus.case.reasonLabel')}
          value={reason}
          onChange={(event) => setReason(event.target.value as ComplaintReason)}
          fullWidth
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { 'data-testid': `${testId}-reason` } }}
        >
          {complaintReasons.map((option) => (
            <MenuItem key={option} value={option}>
              {t(`complaintReasons.${option}`)}
            </MenuItem>
          ))}
        </TextField>
      )}
      {entry.asks === 'extension' && (
        <TextField
          select
          label={t(`${base}.extraLabel`)}
          value={extraDays}
          onChange={(event) => setExtraDays(Number(event.target.value))}
          fullWidth
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { 'data-testid': `${testId}-days` } }}
        >
          {extensionDays.map((days) => (
            <MenuItem key={days} value={days}>
              {t(`${base}.days`, { count: days })}
            </MenuItem>
          ))}
        </TextField>
      )}
      {describes && (
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
          slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': `${testId}-description` } }}
          sx={{ mt: 1 }}
        />
      )}
    </ConfirmDialog>
  )
}
