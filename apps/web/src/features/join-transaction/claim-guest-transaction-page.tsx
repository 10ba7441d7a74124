import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'

function kindKey(type: string | undefined): string | undefined {
  if (type === 'online') return 'joinTransaction.guest.kinds.online'
  if (type === 'f2f' || type === 'f') return 'joinTransaction.guest.kinds.face'
  return undefined
}

/** The guest links: a transaction set up for someone who had no account yet. */
function ClaimGuestTransactionPage({ claimAs }: { claimAs: 'buyer' | 'seller' }) {
  const { t } = useTranslation()
  const { type } = useParams()
  const kind = kindKey(type)
  return (
    <>
      <PageHeader
        title={t('joinTransaction.guest.title')}
        intro={t(claimAs === 'buyer' ? 'joinTransaction.guest.introBuyer' : 'joinTransaction.guest.introSeller')}
      />
      {kind && (
        <ContentCard>
          <Typography variant="overline" component="p" color="text.secondary">
            {t('joinTransaction.guest.kindLabel')}
          </Typography>
          <Typography data-testid="guest-kind">{t(kind)}</Typography>
        </ContentCard>
      )}
    </>
  )
}

export function ClaimGuestAsBuyerPage() {
  return <ClaimGuestTransactionPage claimAs="buyer" />
}

export function ClaimGuestAsSellerPage() {
  return <ClaimGuestTransactionPage claimAs="seller" />
}
