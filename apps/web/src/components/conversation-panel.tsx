import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../i18n/react.tsx'
import { useMessages } from '../lib/api/messages.ts'
import { LoadErrorAlert } from './load-error-alert.tsx'
import { MessageComposer } from './message-composer.tsx'
import { MessageList } from './message-list.tsx'

/**
 * A transaction's conversation at `base`, for the parties and for the admin
 * console alike: loading, error with retry, "no messages yet", the messages
 * (as a live log, so new ones are announced), and the composer when
 * `canWrite` (otherwise `readOnlyNote` says why not).
 */
export function ConversationPanel({
  base,
  label,
  canWrite,
  allowFile,
  fullHash = false,
  readOnlyNote,
  onReadOthers,
}: {
  base: string
  /** The accessible name of the message log (the heading's text). */
  label: string
  canWrite: boolean
  allowFile: boolean
  fullHash?: boolean
  readOnlyNote?: string
  onReadOthers?: () => void
}) {
  const { t } = useTranslation()
  const messages = useMessages(base, { onReadOthers })
  return (
    <Stack spacing={2}>
      {messages.isPending ? (
        <Typography role="status" color="text.secondary" data-testid="conversation-loading">
          {t('conversation.loading')}
        </Typography>
      ) : messages.isError ? (
        <LoadErrorAlert error={messages.error} onRetry={() => void messages.refetch()} testId="conversation-error" />
      ) : (
        <Box role="log" aria-label={label}>
          {messages.data.length === 0 ? (
            <Typography color="text.secondary" data-testid="conversation-empty">
              {t(canWrite ? 'conversation.empty' : 'conversation.emptyReadOnly')}
            </Typography>
          ) : (
            <MessageList base={base} messages={messages.data} fullHash={fullHash} />
          )}
        </Box>
      )}
      {canWrite ? (
        <MessageComposer base={base} allowFile={allowFile} />
      ) : (
        readOnlyNote && (
          <Typography color="text.secondary" data-testid="conversation-read-only">
            {readOnlyNote}
          </Typography>
        )
      )}
    </Stack>
  )
}
