import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { statusesByKind } from '@pactum/domain/transactions/statuses'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'

/** A step of the history: a state reached, or the carrier's news that the parcel is on its way (no state of its own). */
export type TimelineStep = AnyTransaction['status'] | 'in_transit'

/** The steps a kind's history can show, in their natural order: online, "in transit" comes between tracking and delivery. */
function stepsOf(kind: AnyTransaction['type']): readonly TimelineStep[] {
  if (kind === 'f2f') return statusesByKind.f2f
  return statusesByKind.online.flatMap((status): TimelineStep[] => (status === 'tracked' ? [status, 'in_transit'] : [status]))
}

/** Every step this transaction has reached, in the order it reached them, with when. */
export function timelineOf(transaction: AnyTransaction): Array<{ state: TimelineStep; at: string }> {
  const states = stepsOf(transaction.type)
  const stamps = transaction as unknown as Record<string, string | null>
  return states
    .flatMap((state) => {
      const at = stamps[state]
      return at ? [{ state, at }] : []
    })
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || states.indexOf(a.state) - states.indexOf(b.state))
}

/** A case settled or decided on a split ends released with part of the money back: the step says so. */
function stepName(transaction: AnyTransaction, step: TimelineStep): string {
  const split = transaction.complaint !== null && transaction.amount_refunded > 0 && transaction.amount_released > 0
  return step === 'funds_released' && split ? 'funds_split' : step
}

export function TransactionTimeline({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const events = timelineOf(transaction)
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="transaction-timeline">
      {events.map((event, index) => (
        <Box
          component="li"
          key={event.state}
          data-state={event.state}
          sx={{
            display: 'grid',
            gridTemplateColumns: '28px 1fr',
            columnGap: 1.5,
            position: 'relative',
            pb: index < events.length - 1 ? 2 : 0,
          }}
        >
          <CheckCircleIcon aria-hidden sx={{ color: 'primary.main', fontSize: 22, mt: 0.25 }} />
          <div>
            <Typography sx={{ fontWeight: 600 }}>{t(`transactionStatus.timeline.${stepName(transaction, event.state)}`)}</Typography>
            <Typography variant="body2" color="text.secondary">
              <time dateTime={event.at}>{formatDateTime(event.at, locale)}</time>
            </Typography>
          </div>
        </Box>
      ))}
    </Box>
  )
}
