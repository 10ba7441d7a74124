import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useTransactionAction } from './transactions-api.ts'

/**
 * What every confirmation dialog of a transaction action does once confirmed:
 * post the action with one Idempotency-Key per dialog (a double submit is
 * harmless), close, and say Success! or the translated error.
 */
export function useConfirmedAction(transactionId: string, kind: AnyTransaction['type'], onClose: () => void) {
  const { t } = useTranslation()
  const result = useResultModal()
  const mutation = useTransactionAction(transactionId, kind)
  const [idempotencyKey] = useState(() => crypto.randomUUID())
  const send = (action: string, body: object, successText: string) =>
    mutation.mutate(
      { action, body, idempotencyKey },
      {
        onSuccess: () => {
          onClose()
          result.showSuccess(successText)
        },
        onError: (error) => {
          onClose()
          result.showError(errorMessage(t, error))
        },
      },
    )
  return { send, busy: mutation.isPending }
}
