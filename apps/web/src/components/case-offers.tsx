import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemText from '@mui/material/ListItemText'
import Typography from '@mui/material/Typography'
import type { CaseView, SettlementOfferView } from '@pactum/contracts/disputes'
import type { Role } from '@pactum/contracts/transactions'
import { useTranslation } from '../i18n/react.tsx'
import { useLocale } from '../i18n/use-locale.ts'
import { formatDateTime } from '../lib/dates.ts'
import { formatMoney } from '../lib/money.ts'

/** Every offer of the case, newest first: who made it, the split, the note, and what became of it. */
export function CaseOffers({ dispute, role }: { dispute: CaseView; role: Role | null }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const money = (minor: number) => formatMoney(minor, dispute.currency, locale)
  const who = (offer: SettlementOfferView) =>
    offer.by === role ? t('transactionStatus.case.by.you') : t(`transactionStatus.case.by.${offer.by}`)
  if (dispute.offers.length === 0) {
    return (
      <Typography color="text.secondary" data-testid="case-no-offers">
        {t('transactionStatus.case.noOffers')}
      </Typography>
    )
  }
  return (
    <List dense disablePadding data-testid="case-offers">
      {[...dispute.offers].reverse().map((offer) => (
        <ListItem key={offer.id} disableGutters divider data-testid={`case-offer-${offer.outcome}`}>
          <ListItemText
            primary={t('transactionStatus.case.offerLine', {
              who: who(offer),
              refund: money(offer.refund_to_buyer),
              release: money(offer.release_to_seller),
            })}
            secondary={[t(`transactionStatus.case.outcomes.${offer.outcome}`), formatDateTime(offer.made_at, locale), offer.note]
              .filter((part) => part !== '')
              .join(' · ')}
          />
        </ListItem>
      ))}
    </List>
  )
}
