import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useQueryClient } from '@tanstack/react-query'
import { ContentCard } from '../../components/content-card.tsx'
import { ConversationPanel } from '../../components/conversation-panel.tsx'
import { UnreadBadge } from '../../components/unread-badge.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { transactionKey } from './transactions-api.ts'

/** Where a party reads and writes the conversation: under their kind's prefix. */
export function conversationPath(transaction: Pick<AnyTransaction, 'id' | 'type'>): string {
  return `${transaction.type === 'f2f' ? '/p2p' : ''}/transactions/${encodeURIComponent(transaction.id)}/messages`
}

/**
 * The conversation between buyer and seller (issue 32), for either kind: the
 * messages and a composer once both take part (the server refuses a message
 * before, `not_accepted`), and a line saying so until then. Reading marks the
 * messages read on the server, so the unread count is asked for again.
 */
export function ConversationCard({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  if (transaction.role === null) return null
  const bothTakePart = transaction.buyer_id !== null && transaction.seller_id !== null
  const heading = t('conversation.heading')
  const refreshUnread = () => {
    void queryClient.invalidateQueries({ queryKey: transactionKey(transaction.id) })
    void queryClient.invalidateQueries({ queryKey: ['transactions'] })
  }
  return (
    <ContentCard testId="conversation-card">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2, gap: 1 }}>
        <Typography component="h2" variant="h6">
          {heading}
        </Typography>
        <UnreadBadge count={transaction.unread_messages} testId="conversation-unread" />
      </Stack>
      {bothTakePart ? (
        <ConversationPanel base={conversationPath(transaction)} label={heading} canWrite allowFile onReadOthers={refreshUnread} />
      ) : (
        <Typography color="text.secondary" data-testid="conversation-not-yet">
          {t(`conversation.notYet.${transaction.role}`)}
        </Typography>
      )}
    </ContentCard>
  )
}
