import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { routeTo } from '../../lib/named-routes.ts'

export function TransactionStatusPage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  return (
    <>
      <PageHeader
        title={t('transactionStatus.title')}
        intro={t('transactionStatus.intro')}
        breadcrumbs={[{ label: t('transactions.title'), to: routeTo('transactions') }, { label: t('transactionStatus.title') }]}
      />
      <ContentCard>
        <Typography variant="overline" component="p" color="text.secondary">
          {t('transactionStatus.reference')}
        </Typography>
        <Typography data-testid="transaction-id" sx={{ fontFamily: 'monospace', fontSize: 18, overflowWrap: 'anywhere' }}>
          {id}
        </Typography>
      </ContentCard>
    </>
  )
}
