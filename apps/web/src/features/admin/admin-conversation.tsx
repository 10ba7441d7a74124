import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { ConversationPanel } from '../../components/conversation-panel.tsx'
import { useTranslation } from '../../i18n/react.tsx'

/**
 * The transaction's conversation as the admin sees it (issue 32): every
 * message with its attachment and the full SHA-256 the history records (the
 * admin decides on this evidence), and a composer for text once there is a
 * complaint (the server answers 409 not_complained before).
 */
export function AdminConversation({ detail }: { detail: AdminTransactionDetail }) {
  const { t } = useTranslation()
  const { transaction } = detail
  const heading = t('conversation.adminHeading')
  return (
    <Paper variant="outlined" component="section" sx={{ p: 2 }} data-testid="admin-conversation">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {heading}
      </Typography>
      <ConversationPanel
        base={`/admin/transactions/${encodeURIComponent(transaction.id)}/messages`}
        label={heading}
        canWrite={transaction.complaint !== null}
        allowFile={false}
        fullHash
        readOnlyNote={t('conversation.adminReadOnly')}
      />
    </Paper>
  )
}
