import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useNavigate } from 'react-router'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { type AnyJoinPreview, useJoinTransaction, useRejectTransaction } from './join-api.ts'
import { BusyButton } from '../../components/busy-button.tsx'
import { OfferHeading } from './offer-heading.tsx'

/** The sale behind a join code, as the person joining sees it, with joining or turning it down. */
export function PreviewCard({ code, preview }: { code: string; preview: AnyJoinPreview }) {
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
    join.mutate(
      { code, preview },
      {
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
      },
    )
  const onReject = () =>
    reject.mutate(
      { preview, code },
      {
        onSuccess: () => {
          setConfirmReject(false)
          toast.show(t('joinTransaction.preview.rejected'), { severity: 'info' })
          navigate(routeTo('transactions'))
        },
        onError: (error) => {
          setConfirmReject(false)
          result.showError(errorMessage(t, error))
        },
      },
    )

  return (
    <ContentCard testId="join-preview">
      <Stack spacing={2.5}>
        <OfferHeading
          description={preview.description}
          maker={t(preview.creator_role === 'seller' ? 'joinTransaction.preview.creatorSeller' : 'joinTransaction.preview.creatorBuyer', {
            name: preview.creator_first_name || t('joinTransaction.preview.someone'),
          })}
          testIds={{ description: 'preview-description', maker: 'preview-creator' }}
        />
        {preview.type === 'f2f' ? (
          <>
            <Typography color="text.secondary" data-testid="preview-kind">
              {t('joinTransaction.preview.f2fDeposit')}
            </Typography>
            <AmountSummary
              part="deposit"
              price={preview.deposit_pricing.price}
              charge={preview.deposit_pricing.charge}
              currency={preview.currency}
            />
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
            <BusyButton
              variant="contained"
              size="large"
              onClick={onJoin}
              disabled={!joinable}
              busy={join.isPending}
              data-testid="join-submit"
            >
              {t(myRole === 'buyer' ? 'joinTransaction.preview.joinAsBuyer' : 'joinTransaction.preview.joinAsSeller')}
            </BusyButton>
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
