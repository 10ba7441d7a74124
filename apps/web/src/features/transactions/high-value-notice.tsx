import VerifiedUserIcon from '@mui/icons-material/VerifiedUserOutlined'
import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { verifyIdentityPath } from './high-value.ts'
import { useOwnVerificationStatus } from './transactions-api.ts'

/** To the identity verification section of the personal details page. */
export function VerifyIdentityLink({ testId }: { testId: string }) {
  const { t } = useTranslation()
  return (
    <Button
      variant="outlined"
      color="inherit"
      component={RouterLink}
      to={verifyIdentityPath}
      startIcon={<VerifiedUserIcon aria-hidden />}
      data-testid={testId}
    >
      {t('transactionStatus.highValue.verify')}
    </Button>
  )
}

/**
 * Shown to both parties of a high-value sale that can still be paid: the
 * payment waits for both identities, and the person's own state decides
 * whether they are sent to verify theirs.
 */
export function HighValueNotice() {
  const { t } = useTranslation()
  const verification = useOwnVerificationStatus(true)
  const verified = verification.data?.verified
  return (
    <Alert severity="info" icon={<VerifiedUserIcon aria-hidden />} data-testid="high-value-notice">
      <AlertTitle>{t('transactionStatus.highValue.title')}</AlertTitle>
      <Typography variant="body2">{t('transactionStatus.highValue.body')}</Typography>
      {verified === true && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="high-value-verified">
          {t('transactionStatus.highValue.verified')}
        </Typography>
      )}
      {verified === false && (
        <Box sx={{ mt: 1.5 }}>
          <VerifyIdentityLink testId="high-value-verify-link" />
        </Box>
      )}
    </Alert>
  )
}
