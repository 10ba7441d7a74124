import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined'
import EditIcon from '@mui/icons-material/EditOutlined'
import Button from '@mui/material/Button'
import type { BankAccount } from '@pactum/contracts/bank-accounts'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { DetailsList } from '../../components/details-list.tsx'
import { IconHeading } from '../../components/icon-heading.tsx'
import { routeTo } from '../../lib/named-routes.ts'

/** The payout account on file, its number shortened, with a way to change it. */
export function StoredAccount({ account }: { account: BankAccount }) {
  const { t } = useTranslation()
  const rows = [
    { label: t('profile.bankDetails.fields.account_holder_name'), value: account.account_holder_name, testId: 'bank-stored-holder' },
    { label: t('profile.bankDetails.accountNumber'), value: `···· ${account.last4}`, testId: 'bank-stored-number' },
    ...(account.bank_name ? [{ label: t('profile.bankDetails.bankName'), value: account.bank_name, testId: 'bank-stored-bank' }] : []),
    ...(account.routing_number
      ? [{ label: t('profile.bankDetails.routing'), value: account.routing_number, testId: 'bank-stored-routing' }]
      : []),
    ...(account.account_type
      ? [
          {
            label: t('profile.bankDetails.fields.account_type'),
            value: t(`profile.bankDetails.accountTypes.${account.account_type}`),
            testId: 'bank-stored-type',
          },
        ]
      : []),
    { label: t('profile.bankDetails.currency'), value: account.currency.toUpperCase(), testId: 'bank-stored-currency' },
  ]
  return (
    <ContentCard testId="bank-details-stored">
      <IconHeading Icon={AccountBalanceOutlinedIcon} title={t('profile.bankDetails.storedTitle')} />
      <DetailsList rows={rows} spaced />
      <Button
        variant="contained"
        startIcon={<EditIcon aria-hidden />}
        component={RouterLink}
        to={routeTo('payoutBankDetails', {}, { edit: 'true' })}
        data-testid="bank-edit"
      >
        {t('profile.bankDetails.edit')}
      </Button>
    </ContentCard>
  )
}
