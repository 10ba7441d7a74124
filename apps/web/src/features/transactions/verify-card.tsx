import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Skeleton from '@mui/material/Skeleton'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { lazy, Suspense } from 'react'
import { useTranslation } from '../../i18n/react.tsx'

// The QR encoder is its own chunk: only this card, lower on a page that is not the first load, asks for it.
const VerifyQr = lazy(() => import('./verify-qr.tsx').then((module) => ({ default: module.VerifyQr })))

/** Scanned or opened, this QR code's side is the same on every phone. */
const qrSize = 168

/**
 * The sale's public verification page (decision 114), as a link and a QR
 * code: a buyer scans it to check, on Pactum's own address, that Pactum
 * holds the money; a seller shows it to a buyer who worries about fake
 * escrow sites.
 */
export function VerifyCard({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  return (
    <Box component="section" aria-labelledby="verify-card-heading">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={3}
        sx={{ p: { xs: 2.5, sm: 4 }, mb: 3, border: 1, borderColor: 'divider', borderRadius: 3, bgcolor: 'background.paper' }}
        data-testid="verify-card"
      >
        <Box sx={{ width: qrSize, height: qrSize, flexShrink: 0 }}>
          <Suspense fallback={<Skeleton variant="rectangular" width={qrSize} height={qrSize} aria-hidden />}>
            <VerifyQr url={transaction.verify_url} size={qrSize} alt={t('transactionStatus.verify.qrAlt')} />
          </Suspense>
        </Box>
        <Stack spacing={1}>
          <Typography id="verify-card-heading" component="h2" variant="h6">
            {t('transactionStatus.verify.heading')}
          </Typography>
          <Typography color="text.secondary">{t('transactionStatus.verify.body')}</Typography>
          <Link href={transaction.verify_url} target="_blank" rel="noopener" sx={{ overflowWrap: 'anywhere' }} data-testid="verify-link">
            {t('transactionStatus.verify.link')}
          </Link>
        </Stack>
      </Stack>
    </Box>
  )
}
