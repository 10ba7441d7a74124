import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'

/** /join-transaction/listing/:id — a seller's listing that a buyer opens to start a transaction. */
export function JoinListingPage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  return (
    <>
      <PageHeader title={t('joinTransaction.listing.title')} intro={t('joinTransaction.listing.intro')} />
      <ContentCard>
        <Typography variant="overline" component="p" color="text.secondary">
          {t('joinTransaction.listing.reference')}
        </Typography>
        <Typography data-testid="listing-id" sx={{ fontFamily: 'monospace', fontSize: 18, overflowWrap: 'anywhere' }}>
          {id}
        </Typography>
      </ContentCard>
    </>
  )
}
