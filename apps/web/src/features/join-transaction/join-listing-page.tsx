import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { type ListingPreviewWithPath, useBuyFromListing, useListingPreview } from './join-api.ts'
import { BusyButton } from '../../components/busy-button.tsx'
import { ListingAmounts } from './listing-amounts.tsx'
import { PreviewLoading } from './preview-loading.tsx'
import { OfferHeading } from './offer-heading.tsx'

/** /join-transaction/listing/:id — a seller's listing: the offer, then a purchase the seller accepts before the buyer pays. */
export function JoinListingPage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  const preview = useListingPreview(id)

  return (
    <>
      <PageHeader title={t('joinTransaction.listing.title')} intro={t('joinTransaction.listing.intro')} />
      {preview.isPending ? (
        <PreviewLoading label={t('listings.join.loading')} />
      ) : preview.isError ? (
        errorCodeOf(preview.error) === 'not_found' ? (
          <Unavailable titleKey="listings.join.notFoundTitle" bodyKey="listings.join.notFoundBody" testId="listing-not-found" />
        ) : (
          <LoadErrorAlert error={preview.error} onRetry={() => void preview.refetch()} testId="listing-error" />
        )
      ) : !preview.data.available ? (
        <Unavailable titleKey="listings.join.closedTitle" bodyKey="listings.join.closedBody" testId="listing-closed" />
      ) : (
        <Offer preview={preview.data} />
      )}
    </>
  )
}

/** A listing that cannot be bought from (unknown, sold or closed): said plainly, with the way on. */
function Unavailable({ titleKey, bodyKey, testId }: { titleKey: string; bodyKey: string; testId: string }) {
  const { t } = useTranslation()
  return (
    <ContentCard testId={testId}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography component="h2" variant="h5" sx={{ fontWeight: 700 }}>
          {t(titleKey)}
        </Typography>
        <Typography color="text.secondary">{t(bodyKey)}</Typography>
        <Button variant="contained" component={RouterLink} to={routeTo('transactions')} data-testid="listing-to-transactions">
          {t('listings.join.toTransactions')}
        </Button>
      </Stack>
    </ContentCard>
  )
}

function Offer({ preview }: { preview: ListingPreviewWithPath }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const toast = useToast()
  const result = useResultModal()
  const queryClient = useQueryClient()
  const buy = useBuyFromListing()

  const onBuy = () =>
    buy.mutate(preview, {
      onSuccess: (transaction) => {
        toast.show(t('listings.join.bought'), { severity: 'success' })
        navigate(routeTo('status', { id: transaction.id }))
      },
      onError: (error) => {
        // The seller changed the terms, or another buyer came first: show the listing as it is now.
        const code = errorCodeOf(error)
        if (code === 'incorrect_charge' || code === 'listing_closed')
          void queryClient.invalidateQueries({ queryKey: ['listing-preview', preview.id] })
        result.showError(errorMessage(t, error))
      },
    })

  return (
    <ContentCard testId="listing-preview">
      <Stack spacing={2.5}>
        <OfferHeading
          description={preview.description}
          maker={t('listings.join.seller', { name: preview.seller_first_name || t('listings.join.someone') })}
          testIds={{ description: 'listing-preview-description', maker: 'listing-preview-seller' }}
        />
        <ListingAmounts preview={preview} />
        <Alert severity="info">{t('listings.join.acceptanceNote')}</Alert>
        <Box>
          <BusyButton variant="contained" size="large" onClick={onBuy} busy={buy.isPending} data-testid="listing-buy">
            {t('listings.join.buy')}
          </BusyButton>
        </Box>
      </Stack>
    </ContentCard>
  )
}
