import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Skeleton from '@mui/material/Skeleton'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { PartyDetails, Role } from '@pactum/contracts/transactions'
import { useTranslation } from '../../i18n/react.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { usePartyDetails } from './transactions-api.ts'

const otherParty = (role: Role): Role => (role === 'buyer' ? 'seller' : 'buyer')

function fullName(details: PartyDetails): string {
  return [details.first_name, details.last_name].filter((part) => part && part.trim() !== '').join(' ')
}

/** Who the viewer deals with: the seller's name and e-mail for the buyer, the buyer's for the seller; a placeholder until they join. */
export function CounterpartyDetails({ transaction }: { transaction: AnyTransaction }) {
  const { role } = transaction
  if (!role) return null
  return <Counterparty transaction={transaction} party={otherParty(role)} />
}

function Counterparty({ transaction, party }: { transaction: AnyTransaction; party: Role }) {
  const { t } = useTranslation()
  const details = usePartyDetails(transaction, party)
  const joined = (party === 'buyer' ? transaction.buyer_id : transaction.seller_id) !== null
  const name = details.data ? fullName(details.data) : ''
  const email = details.data?.email ?? null

  let content
  if (!joined || (details.data && name === '' && email === null)) {
    content = (
      <Typography color="text.secondary" data-testid="counterparty-placeholder">
        {t(`transactionStatus.counterparty.notJoined.${party}`)}
      </Typography>
    )
  } else if (details.isPending) {
    content = <Skeleton variant="text" width="60%" aria-label={t('app.loading')} />
  } else if (details.isError) {
    content = <Typography color="text.secondary">{errorMessage(t, details.error)}</Typography>
  } else {
    content = (
      <>
        {name !== '' && (
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="counterparty-name">
            {name}
          </Typography>
        )}
        {email && (
          <Link href={`mailto:${email}`} sx={{ overflowWrap: 'anywhere' }} data-testid="counterparty-email">
            {email}
          </Link>
        )}
      </>
    )
  }

  return (
    <Box data-testid="counterparty" data-party={party}>
      <Typography variant="overline" component="h3" color="text.secondary" sx={{ lineHeight: 1.8 }}>
        {t(`roles.${party}`)}
      </Typography>
      {content}
    </Box>
  )
}
