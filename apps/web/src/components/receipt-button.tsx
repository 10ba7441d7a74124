import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { PdfDownloadButton } from './pdf-download-button.tsx'

/**
 * "Download receipt (PDF)" (issue 33) once the buyer has paid (online: the
 * payment; face to face: the deposit), as the server answers 409 before:
 * a party's under their kind's path, the admin console's under /admin.
 */
export function ReceiptButton({ transaction, admin = false }: { transaction: AnyTransaction; admin?: boolean }) {
  const paid = transaction.type === 'f2f' ? transaction.deposit_paid : transaction.paid
  if (paid === null || (!admin && transaction.role === null)) return null
  const prefix = admin ? '/admin' : transaction.type === 'f2f' ? '/p2p' : ''
  return <PdfDownloadButton document="receipt" path={`${prefix}/transactions/${transaction.id}/receipt`} transactionId={transaction.id} />
}
