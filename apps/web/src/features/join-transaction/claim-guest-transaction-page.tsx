import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { readTransactionType } from '@pactum/contracts/transactions'
import { claimSecretSchema, type ClaimPreview } from '@pactum/contracts/guest-transactions'
import { guestInvitationValidityDays } from '@pactum/domain/guest-invitation-timing'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { type ClaimKind, type ClaimRole, useClaimPreview, useClaimTransaction } from './claim-api.ts'
import { BusyButton } from '../../components/busy-button.tsx'
import { PreviewLoading } from './preview-loading.tsx'
import { OfferHeading } from './offer-heading.tsx'

/** The link's kind; the spec's `f` reads as face to face. */
function kindOf(type: string | undefined): ClaimKind | null {
  return readTransactionType(type)
}

/**
 * The guest links of the invitation e-mail (issue 12 #2): the person is
 * signed in (or signed up) by the shell first, sees what they are offered,
 * accepts, and lands on the status page. A link that is malformed, unknown,
 * used, expired, their own, or of another role or kind gets a page that says so.
 */
function ClaimGuestTransactionPage({ claimAs }: { claimAs: ClaimRole }) {
  const { t } = useTranslation()
  const { claim_secret: secret = '', type } = useParams()
  const kind = kindOf(type)
  const wellFormed = kind !== null && claimSecretSchema.safeParse(secret).success
  const preview = useClaimPreview(secret, wellFormed)

  return (
    <>
      <PageHeader
        title={t('joinTransaction.guest.title')}
        intro={t(claimAs === 'buyer' ? 'joinTransaction.guest.introBuyer' : 'joinTransaction.guest.introSeller')}
      />
      {!wellFormed ? (
        <Problem title={t('guestClaim.problemTitle')} body={t('guestClaim.invalidLink')} testId="claim-invalid" />
      ) : preview.isPending ? (
        <PreviewLoading label={t('guestClaim.loading')} />
      ) : preview.isError && errorCodeOf(preview.error) === 'claim_link_expired' ? (
        <Problem
          title={t('guestInvitation.expiredTitle')}
          body={t('guestInvitation.expiredBody', { days: guestInvitationValidityDays })}
          testId="claim-expired"
        />
      ) : preview.isError ? (
        <Problem
          title={t('guestClaim.problemTitle')}
          body={errorMessage(t, preview.error)}
          testId="claim-error"
          {...(preview.error instanceof ApiError && preview.error.status >= 500 ? { onRetry: () => void preview.refetch() } : {})}
        />
      ) : preview.data.claimed ? (
        <Problem title={t('guestClaim.usedTitle')} body={t('guestClaim.usedBody')} testId="claim-used" />
      ) : preview.data.role !== claimAs || preview.data.type !== kind ? (
        <Problem title={t('guestClaim.problemTitle')} body={t('apiErrors.claim_link_mismatch')} testId="claim-mismatch" />
      ) : (
        <ClaimCard secret={secret} preview={preview.data} />
      )}
    </>
  )
}

function Problem({ title, body, testId, onRetry }: { title: string; body: string; testId: string; onRetry?: () => void }) {
  const { t } = useTranslation()
  return (
    <ContentCard testId={testId}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography component="h2" variant="h5" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        <Typography color="text.secondary">{body}</Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {onRetry && (
            <Button variant="outlined" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          )}
          <Button variant="contained" component={RouterLink} to={routeTo('transactions')} data-testid="claim-to-transactions">
            {t('guestClaim.toTransactions')}
          </Button>
        </Stack>
      </Stack>
    </ContentCard>
  )
}

function ClaimCard({ secret, preview }: { secret: string; preview: ClaimPreview }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const result = useResultModal()
  const toast = useToast()
  const claim = useClaimTransaction()
  const kindKey = preview.type === 'f2f' ? 'f2f' : 'online'
  const onClaim = () =>
    claim.mutate(
      { secret, role: preview.role, kind: preview.type },
      {
        onSuccess: (transaction) => {
          toast.show(t('guestClaim.claimed'), { severity: 'success' })
          navigate(routeTo('status', { id: transaction.id }))
        },
        onError: (error) => result.showError(errorMessage(t, error)),
      },
    )
  return (
    <ContentCard testId="claim-preview">
      <Stack spacing={2.5}>
        <Typography color="text.secondary" data-testid="claim-invited">
          {t('guestClaim.invitedAs', { email: preview.invited_email })}
        </Typography>
        <OfferHeading
          description={preview.description}
          maker={
            preview.inviter_first_name === null
              ? t('guestClaim.viaPartner')
              : t(preview.role === 'buyer' ? 'joinTransaction.preview.creatorSeller' : 'joinTransaction.preview.creatorBuyer', {
                  name: preview.inviter_first_name || t('joinTransaction.preview.someone'),
                })
          }
          testIds={{ description: 'claim-description', maker: 'claim-inviter' }}
        />
        <Typography color="text.secondary" data-testid="claim-kind">
          {t('joinTransaction.guest.kindLabel')}:{' '}
          {t(preview.type === 'f2f' ? 'joinTransaction.guest.kinds.face' : 'joinTransaction.guest.kinds.online')}
        </Typography>
        {preview.type === 'f2f' && <Typography color="text.secondary">{t('joinTransaction.preview.f2fDeposit')}</Typography>}
        <AmountSummary
          part={preview.type === 'f2f' ? 'deposit' : 'price'}
          price={preview.price}
          charge={preview.charge}
          currency={preview.currency}
        />
        <Typography color="text.secondary">
          {t(`joinTransaction.preview.${kindKey}.${preview.role === 'buyer' ? 'youPay' : 'youSell'}`)}
        </Typography>
        {preview.status !== 'created' && (
          <Alert severity="info" data-testid="claim-closed">
            {t(
              preview.status === 'cancelled' || preview.status === 'rejected' ? 'apiErrors.already_cancelled' : 'apiErrors.already_joined',
            )}
          </Alert>
        )}
        <div>
          <BusyButton
            variant="contained"
            size="large"
            onClick={onClaim}
            disabled={preview.status !== 'created'}
            busy={claim.isPending}
            data-testid="claim-submit"
          >
            {t(preview.role === 'buyer' ? 'guestClaim.claimAsBuyer' : 'guestClaim.claimAsSeller')}
          </BusyButton>
        </div>
      </Stack>
    </ContentCard>
  )
}

export function ClaimGuestAsBuyerPage() {
  return <ClaimGuestTransactionPage claimAs="buyer" />
}

export function ClaimGuestAsSellerPage() {
  return <ClaimGuestTransactionPage claimAs="seller" />
}
