import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { Role } from '@pactum/contracts/transactions'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { routeTo } from '../../lib/named-routes.ts'

/**
 * What happens after a complaint, for either kind of sale: the seller may
 * accept it, either party may offer a split (the case card), otherwise
 * Pactum decides on the evidence in the conversation, within the timescale
 * of the terms (summary resolution in 3 business days, final response in 8
 * weeks).
 * The seller who disagrees is pointed at the contact form.
 */
export function ComplaintNextSteps({ role }: { role: Role }) {
  const { t } = useTranslation()
  return (
    <Stack spacing={1} data-testid="complaint-next-steps">
      {role === 'buyer' ? (
        <>
          <Typography>{t('transactionStatus.complaintProcess.buyer.sellerMayAccept')}</Typography>
          <Typography>{t('transactionStatus.complaintProcess.buyer.settle')}</Typography>
          <Typography>{t('transactionStatus.complaintProcess.buyer.supportDecides')}</Typography>
        </>
      ) : (
        <>
          <Typography>{t('transactionStatus.complaintProcess.seller.accept')}</Typography>
          <Typography>{t('transactionStatus.complaintProcess.seller.settle')}</Typography>
          <Typography>{t('transactionStatus.complaintProcess.seller.supportDecides')}</Typography>
          <Typography>
            {t('transactionStatus.complaintProcess.seller.tellUs')}{' '}
            <Link component={RouterLink} to={routeTo('contactUs')} sx={{ fontWeight: 600 }} data-testid="complaint-contact-link">
              {t('transactionStatus.complaintProcess.contactLink')}
            </Link>
          </Typography>
        </>
      )}
      <Typography color="text.secondary" data-testid="complaint-timescale">
        {t('transactionStatus.complaintProcess.timescale')}
      </Typography>
    </Stack>
  )
}
