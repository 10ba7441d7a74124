import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { toLanguageTag } from '@pactum/domain/locales'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'

/**
 * A card dispute on the sale's payment, for both parties (decision 109):
 * while the bank decides on money Pactum held, the sale is paused and says
 * why; once decided, what the decision did. The evidence deadline is the
 * seller's to know: Pactum answers the bank with the sale's record.
 */
export function ChargebackNotice({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const chargeback = transaction.chargeback
  if (!chargeback || !transaction.role) return null
  const open = chargeback.status === 'needs_response' || chargeback.status === 'under_review'
  const amount = formatMoney(chargeback.amount, transaction.currency, locale)
  const outcome = open ? (chargeback.frozen ? 'paused' : 'open') : chargeback.status === 'won' ? 'won' : 'lost'
  const due = chargeback.evidence_due_by ? new Date(chargeback.evidence_due_by).toLocaleDateString(toLanguageTag(locale)) : null
  return (
    <Alert severity={open ? 'warning' : chargeback.status === 'won' ? 'success' : 'info'} data-testid="chargeback-notice" role="status">
      <AlertTitle>{t(`transactionStatus.chargeback.title.${outcome}`, { amount })}</AlertTitle>
      <Typography variant="body2">{t(`transactionStatus.chargeback.body.${outcome}.${transaction.role}`)}</Typography>
      {open && due && transaction.role === 'seller' && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="chargeback-due">
          {t('transactionStatus.chargeback.due', { date: due })}
        </Typography>
      )}
    </Alert>
  )
}
