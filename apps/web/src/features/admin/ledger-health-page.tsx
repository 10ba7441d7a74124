import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { useLedgerHealth } from './admin-api.ts'
import { LongHoldsSection } from './long-holds-section.tsx'

/** The invariants `ledger verify` checks (apps/server/src/ledger/verify-ledger.ts), in its order. */
export const ledgerRules = [
  'entry_unbalanced',
  'escrow_negative',
  'escrow_not_zero_after_terminal_state',
  'hold_resolved_twice',
  'transaction_amounts_disagree',
] as const

/** The same checks as `npm run cli -- ledger verify`, run on demand by the server. */
export function LedgerHealthPage() {
  const { t } = useTranslation()
  const health = useLedgerHealth()
  return (
    <>
      <PageHeader title={t('admin.ledger.title')} intro={t('admin.ledger.intro')} />
      {health.isPending ? (
        <StatusMessage busy title={t('admin.ledger.checking')} />
      ) : health.isError ? (
        <LoadErrorAlert error={health.error} onRetry={() => void health.refetch()} />
      ) : (
        <Stack spacing={2}>
          {health.data.ok ? (
            <Alert severity="success" data-testid="ledger-ok">
              <AlertTitle>{t('admin.ledger.ok')}</AlertTitle>
              {t('admin.ledger.checked')}
            </Alert>
          ) : (
            <Alert severity="error" data-testid="ledger-breaches">
              <AlertTitle>{t('admin.ledger.breaches', { count: health.data.breaches.length })}</AlertTitle>
              <List dense disablePadding>
                {health.data.breaches.map((breach, index) => (
                  <ListItem key={`${breach.rule}-${index}`} disableGutters data-testid="ledger-breach" sx={{ display: 'block' }}>
                    <Typography component="span" sx={{ fontWeight: 700 }}>
                      {t(`admin.ledger.rules.${breach.rule}`, { defaultValue: breach.rule })}
                    </Typography>
                    {': '}
                    {breach.detail}
                    {breach.transaction_id && (
                      <>
                        {' · '}
                        <Link component={RouterLink} to={routeTo('adminTransaction', { id: breach.transaction_id })} color="inherit">
                          {t('admin.transactions.open', { id: breach.transaction_id })}
                        </Link>
                      </>
                    )}
                  </ListItem>
                ))}
              </List>
            </Alert>
          )}
          <div>
            <Typography variant="h6" component="h2">
              {t('admin.ledger.rulesTitle')}
            </Typography>
            <List dense>
              {ledgerRules.map((rule) => (
                <ListItem key={rule} sx={{ display: 'list-item', listStyleType: 'disc', ml: 2 }}>
                  {t(`admin.ledger.rules.${rule}`)}
                </ListItem>
              ))}
            </List>
          </div>
          <div>
            <Button variant="outlined" onClick={() => void health.refetch()} disabled={health.isFetching} data-testid="ledger-recheck">
              {t('admin.ledger.recheck')}
            </Button>
          </div>
        </Stack>
      )}
      <Stack sx={{ mt: 4 }}>
        <LongHoldsSection />
      </Stack>
    </>
  )
}
