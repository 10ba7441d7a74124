import AddIcon from '@mui/icons-material/Add'
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Skeleton from '@mui/material/Skeleton'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { Listing, OwnListing } from '@pactum/contracts/listings'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useSupportedCurrencies } from '../../lib/api/charge-quotes.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { ListingFormDialog } from './listing-form-dialog.tsx'
import { useCloseListing, useMyListings } from './listings-api.ts'
import { EmptyListCard } from '../../components/empty-list-card.tsx'

/** The link buyers open, on this web app's own address (the API's `url` names the configured public one). */
function shareableLink(listing: Listing): string {
  return `${window.location.origin}${routeTo('joinListing', { id: listing.id })}`
}

/** /transactions/listings — the seller's listings, each with its link and code to share. */
export function ListingsPage() {
  const { t } = useTranslation()
  const listings = useMyListings()
  const currencies = useSupportedCurrencies()
  const [editing, setEditing] = useState<Listing | 'new' | null>(null)

  return (
    <>
      <PageHeader
        title={t('listings.title')}
        intro={t('listings.intro')}
        breadcrumbs={[{ label: t('transactions.title'), to: routeTo('transactions') }, { label: t('listings.title') }]}
      />
      <Box sx={{ mb: 3 }}>
        <Button
          variant="contained"
          startIcon={<AddIcon aria-hidden />}
          onClick={() => setEditing('new')}
          disabled={!currencies.data}
          data-testid="listing-new"
        >
          {t('listings.new')}
        </Button>
      </Box>
      {listings.isPending ? (
        <ContentCard>
          <Box role="status" aria-live="polite">
            <Skeleton variant="rounded" height={96} aria-hidden />
            <Typography color="text.secondary">{t('listings.loading')}</Typography>
          </Box>
        </ContentCard>
      ) : listings.isError ? (
        <LoadErrorAlert error={listings.error} onRetry={() => void listings.refetch()} testId="listings-error" />
      ) : listings.data.length === 0 ? (
        <EmptyListCard title={t('listings.emptyTitle')} body={t('listings.emptyBody')} testId="listings-empty" />
      ) : (
        <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="listings">
          {listings.data.map((listing) => (
            <Box component="li" key={listing.id}>
              <ListingCard listing={listing} onEdit={() => setEditing(listing)} />
            </Box>
          ))}
        </Stack>
      )}
      {editing !== null && currencies.data && (
        <ListingFormDialog listing={editing === 'new' ? null : editing} currencies={currencies.data} onClose={() => setEditing(null)} />
      )}
    </>
  )
}

function ListingCard({ listing, onEdit }: { listing: OwnListing; onEdit: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const toast = useToast()
  const result = useResultModal()
  const close = useCloseListing()
  const [confirmClose, setConfirmClose] = useState(false)
  const link = shareableLink(listing)
  const open = listing.status === 'open'

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      toast.show(t('listings.card.copied'), { severity: 'success' })
    } catch {
      toast.show(t('listings.card.copyFailed'), { severity: 'error' })
    }
  }
  const onClose = () =>
    close.mutate(listing.id, {
      onSuccess: () => {
        setConfirmClose(false)
        toast.show(t('listings.card.closedDone'), { severity: 'info' })
      },
      onError: (error) => {
        setConfirmClose(false)
        result.showError(errorMessage(t, error))
      },
    })

  return (
    <ContentCard testId={`listing-${listing.id}`}>
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Typography
            component="h2"
            variant="h6"
            sx={{ fontWeight: 700, overflowWrap: 'anywhere', mr: 'auto' }}
            data-testid="listing-description"
          >
            {listing.description}
          </Typography>
          <Chip size="small" label={t(listing.listing_type === 'single_use' ? 'listings.form.singleUse' : 'listings.form.multiUse')} />
          <Chip size="small" label={t(listing.type === 'f2f' ? 'listings.form.f2f' : 'listings.form.online')} />
          <Chip
            size="small"
            // Held by a purchase waiting for the seller: buyers are already told it is unavailable (issue 33 item 9).
            color={listing.reserved ? 'warning' : open ? 'success' : 'default'}
            label={t(listing.reserved ? 'listings.card.reserved' : open ? 'listings.card.open' : 'listings.card.closed')}
            data-testid="listing-status"
          />
        </Stack>
        <Typography variant="body2" color="text.secondary" data-testid="listing-purchases">
          {t('listings.card.purchases', {
            awaiting: listing.purchases.awaiting_acceptance,
            inProgress: listing.purchases.in_progress,
            completed: listing.purchases.completed,
          })}
        </Typography>
        <Typography>
          {t(listing.type === 'f2f' ? 'listings.card.deposit' : 'listings.card.price')}:{' '}
          <strong>{formatMoney(listing.price, listing.currency, locale)}</strong>
        </Typography>
        {open && (
          <>
            <TextField
              label={t('listings.card.link')}
              value={link}
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'listing-link' } }}
              onFocus={(event) => event.target.select()}
              fullWidth
            />
            <TextField
              label={t('listings.card.code')}
              value={listing.code}
              helperText={t('listings.card.codeHint')}
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'listing-code' } }}
              onFocus={(event) => event.target.select()}
              fullWidth
            />
          </>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {open && (
            <>
              <Button
                variant="contained"
                startIcon={<ContentCopyIcon aria-hidden />}
                onClick={() => void copy(link)}
                data-testid="listing-copy-link"
              >
                {t('listings.card.copyLink')}
              </Button>
              <Button
                variant="outlined"
                startIcon={<ContentCopyIcon aria-hidden />}
                onClick={() => void copy(listing.code)}
                data-testid="listing-copy-code"
              >
                {t('listings.card.copyCode')}
              </Button>
              <Button variant="outlined" onClick={onEdit} data-testid="listing-edit">
                {t('listings.card.edit')}
              </Button>
              <Button variant="outlined" color="error" onClick={() => setConfirmClose(true)} data-testid="listing-close">
                {t('listings.card.close')}
              </Button>
            </>
          )}
        </Stack>
      </Stack>
      <ConfirmDialog
        open={confirmClose}
        title={t('listings.card.closeTitle')}
        body={t('listings.card.closeBody')}
        confirmLabel={t('listings.card.closeConfirm')}
        destructive
        busy={close.isPending}
        onConfirm={onClose}
        onClose={() => setConfirmClose(false)}
        testId="listing-close-dialog"
      />
    </ContentCard>
  )
}
