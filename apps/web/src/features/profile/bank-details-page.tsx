import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useSearchParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { routeTo } from '../../lib/named-routes.ts'

/** /profile/payment/bank-details; `?edit=true` opens the bank form. */
export function BankDetailsPage() {
  const { t } = useTranslation()
  const [query] = useSearchParams()
  const editing = query.get('edit') === 'true'
  return (
    <>
      <PageHeader
        title={t('profile.bankDetails.title')}
        intro={t('profile.bankDetails.intro')}
        breadcrumbs={
          editing
            ? [
                { label: t('profile.bankDetails.title'), to: routeTo('payoutBankDetails') },
                { label: t('profile.bankDetails.editCrumb') },
              ]
            : undefined
        }
      />
      {editing ? (
        <ContentCard testId="bank-details-form">
          <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
            {t('profile.bankDetails.editTitle')}
          </Typography>
          <Stack spacing={2} sx={{ maxWidth: 440 }}>
            <TextField label={t('profile.bankDetails.accountHolder')} autoComplete="name" required />
            <TextField
              label={t('profile.bankDetails.iban')}
              autoComplete="off"
              required
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
            />
            <Box>
              <Button component={RouterLink} to={routeTo('payoutBankDetails')}>
                {t('profile.bankDetails.cancel')}
              </Button>
            </Box>
          </Stack>
        </ContentCard>
      ) : (
        <ContentCard testId="bank-details-empty">
          <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
            <AccountBalanceOutlinedIcon aria-hidden sx={{ fontSize: 40, color: 'primary.main' }} />
            <Typography component="h2" variant="h6">
              {t('profile.bankDetails.emptyTitle')}
            </Typography>
            <Typography color="text.secondary">{t('profile.bankDetails.emptyBody')}</Typography>
            <Button variant="contained" component={RouterLink} to={routeTo('payoutBankDetails', {}, { edit: 'true' })}>
              {t('profile.bankDetails.add')}
            </Button>
          </Stack>
        </ContentCard>
      )}
    </>
  )
}
