import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Skeleton from '@mui/material/Skeleton'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { checkJoinCode, type JoinCodeCheck, joinCodeLength } from '@pactum/domain/join-code-format'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { type AnyJoinPreview, useJoinPreview, useJoinTransaction, useRejectTransaction } from './join-api.ts'
import { readJoinInput } from './join-input.ts'

/** /join-transaction/:id — the code arrives from the form or from a shared link. */
export function JoinByCodePage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  // A link's code is read whole: one with characters outside the alphabet is not valid, rather than looked up without them.
  const check = checkJoinCode(id)
  const code = check.valid ? check.code : ''
  const preview = useJoinPreview(code, check.valid)
  // A listing code in a join-code link (built by hand, say) is no mistake: open the listing.
  const asListing = readJoinInput(id)
  if (asListing.valid && asListing.kind === 'listing') return <Navigate to={asListing.path} replace />

  return (
    <>
      <PageHeader
        title={t('joinTransaction.title')}
        // Their own earlier join: the code has done its work, nothing is about to happen.
        intro={t(preview.data?.joined_by_you ? 'joinTransaction.byCode.introJoined' : 'joinTransaction.byCode.intro')}
        breadcrumbs={[
          { label: t('joinTransaction.title'), to: routeTo('joinTransaction') },
          { label: t('joinTransaction.byCode.crumb') },
        ]}
      />
      {!check.valid ? (
        <InvalidCode check={check} />
      ) : (
        <>
          <ContentCard>
            <Typography variant="overline" component="p" color="text.secondary">
              {t('joinTransaction.codeLabel')}
            </Typography>
            <Typography data-testid="join-code" sx={{ fontFamily: 'monospace', fontSize: 28, letterSpacing: '0.3em' }}>
              {code}
            </Typography>
          </ContentCard>
          {preview.isPending ? (
            <ContentCard>
              <Box role="status" aria-live="polite">
                <Skeleton variant="text" width="60%" height={36} aria-hidden />
                <Skeleton variant="rounded" height={120} aria-hidden />
                <Typography color="text.secondary">{t('joinTransaction.preview.loading')}</Typography>
              </Box>
            </ContentCard>
          ) : preview.isError ? (
            <LoadErrorAlert
              error={preview.error}
              onRetry={() => void preview.refetch()}
              testId="join-error"
              actions={
                <Button color="inherit" component={RouterLink} to={routeTo('joinTransaction')}>
                  {t('joinTransaction.preview.otherCode')}
                </Button>
              }
            />
          ) : (
            <PreviewCard code={code} preview={preview.data} />
          )}
        </>
      )}
    </>
  )
}

/** A link whose code cannot be one: said plainly, with the ways on (type the code, or go to My transactions). */
function InvalidCode({ check }: { check: Exclude<JoinCodeCheck, { valid: true }> }) {
  const { t } = useTranslation()
  return (
    <ContentCard testId="join-code-invalid">
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography component="h2" variant="h5" sx={{ fontWeight: 700 }}>
          {t('joinTransaction.byCode.invalidTitle')}
        </Typography>
        {check.reason === 'characters' && (
          <Typography data-testid="join-code-invalid-characters">
            {t('joinTransaction.charactersNotAllowed', { characters: check.characters })}
          </Typography>
        )}
        <Typography color="text.secondary">
          {t('joinTransaction.codeRules', { length: joinCodeLength })} {t('joinTransaction.byCode.invalidBody')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" component={RouterLink} to={routeTo('joinTransaction')} data-testid="join-enter-code">
            {t('joinTransaction.byCode.enterCode')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={routeTo('transactions')} data-testid="join-to-transactions">
            {t('transactions.title')}
          </Button>
        </Stack>
      </Stack>
    </ContentCard>
  )
}

function PreviewCard({ code, preview }: { code: string; preview: AnyJoinPreview }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const result = useResultModal()
  const toast = useToast()
  const join = useJoinTransaction()
  const queryClient = useQueryClient()
  const reject = useRejectTransaction()
  const [confirmReject, setConfirmReject] = useState(false)
  const myRole = preview.creator_role === 'buyer' ? 'seller' : 'buyer'
  const joinable = preview.status === 'created'

  const onJoin = () =>
    join.mutate({ code, preview }, {
      onSuccess: (transaction) => {
        toast.show(t('joinTransaction.preview.joined'), { severity: 'success' })
        navigate(routeTo('status', { id: transaction.id }))
      },
      onError: (error) => {
        // The creator changed the offer since this preview: show the new terms.
        if ((error as { code?: string }).code === 'incorrect_charge') {
          void queryClient.invalidateQueries({ queryKey: ['join-preview', code] })
        }
        result.showError(errorMessage(t, error))
      },
    })
  const onReject = () =>
    reject.mutate({ preview, code }, {
      onSuccess: () => {
        setConfirmReject(false)
        toast.show(t('joinTransaction.preview.rejected'), { severity: 'info' })
        navigate(routeTo('transactions'))
      },
      onError: (error) => {
        setConfirmReject(false)
        result.showError(errorMessage(t, error))
      },
    })

  return (
    <ContentCard testId="join-preview">
      <Stack spacing={2.5}>
        <Typography component="h2" variant="h5" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }} data-testid="preview-description">
          {preview.description}
        </Typography>
        <Typography data-testid="preview-creator">
          {t(preview.creator_role === 'seller' ? 'joinTransaction.preview.creatorSeller' : 'joinTransaction.preview.creatorBuyer', {
            name: preview.creator_first_name || t('joinTransaction.preview.someone'),
          })}
        </Typography>
        {preview.type === 'f2f' ? (
          <>
            <Typography color="text.secondary" data-testid="preview-kind">
              {t('joinTransaction.preview.f2fDeposit')}
            </Typography>
            <AmountSummary price={preview.deposit_pricing.price} charge={preview.deposit_pricing.charge} currency={preview.currency} />
          </>
        ) : (
          <AmountSummary price={preview.price} charge={preview.charge} currency={preview.currency} />
        )}
        {preview.payment_method && (
          <Typography color="text.secondary">
            {t('joinTransaction.preview.paymentMethod', { method: t(`paymentMethods.${preview.payment_method}`) })}
          </Typography>
        )}
        <Typography color="text.secondary">
          {t(`joinTransaction.preview.${preview.type === 'f2f' ? 'f2f' : 'online'}.${myRole === 'buyer' ? 'youPay' : 'youSell'}`)}
        </Typography>
        {preview.joined_by_you ? (
          // Their own earlier join (a second tap, the answer lost on the way): the code has done its work.
          <Alert
            severity="success"
            data-testid="join-already-yours"
            action={
              <Button color="inherit" component={RouterLink} to={routeTo('status', { id: preview.id })} sx={{ whiteSpace: 'nowrap' }}>
                {t('joinTransaction.preview.open')}
              </Button>
            }
          >
            {t('joinTransaction.preview.joinedByYou')}
          </Alert>
        ) : (
          !joinable && <Alert severity="info">{t('apiErrors.already_joined')}</Alert>
        )}
        {!preview.joined_by_you && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button
              variant="contained"
              size="large"
              onClick={onJoin}
              disabled={!joinable || join.isPending}
              loading={join.isPending}
              loadingPosition="start"
              data-testid="join-submit"
            >
              {t(myRole === 'buyer' ? 'joinTransaction.preview.joinAsBuyer' : 'joinTransaction.preview.joinAsSeller')}
            </Button>
            <Button
              variant="outlined"
              color="error"
              size="large"
              onClick={() => setConfirmReject(true)}
              disabled={!joinable || join.isPending}
              data-testid="join-reject"
            >
              {t('joinTransaction.preview.notForMe')}
            </Button>
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        open={confirmReject}
        title={t('joinTransaction.preview.rejectTitle')}
        body={t('joinTransaction.preview.rejectBody')}
        confirmLabel={t('joinTransaction.preview.rejectConfirm')}
        destructive
        busy={reject.isPending}
        onConfirm={onReject}
        onClose={() => setConfirmReject(false)}
        testId="reject-dialog"
      />
    </ContentCard>
  )
}
