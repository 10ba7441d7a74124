import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { alpha } from '@mui/material/styles'
import type { MessageView } from '@pactum/contracts/messages'
import { useTranslation } from '../i18n/react.tsx'
import { useLocale } from '../i18n/use-locale.ts'
import { formatDateTime } from '../lib/dates.ts'
import { MessageAttachment } from './message-attachment.tsx'

/**
 * The conversation, oldest first: the viewer's own messages on the right,
 * the others' on the left, each naming its author's role and time. Texts are
 * rendered as text (React escapes them), never as HTML.
 */
export function MessageList({ base, messages, fullHash = false }: { base: string; messages: MessageView[]; fullHash?: boolean }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  return (
    <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="message-list">
      {messages.map((message) => {
        const author = t(`conversation.authors.${message.author_role}`)
        return (
          <Box
            component="li"
            key={message.id}
            data-testid="message"
            data-mine={message.mine}
            sx={{ display: 'flex', justifyContent: message.mine ? 'flex-end' : 'flex-start' }}
          >
            <Stack
              spacing={1}
              sx={(theme) => ({
                maxWidth: { xs: '92%', sm: '80%' },
                minWidth: 0,
                p: 1.5,
                borderRadius: 2,
                border: 1,
                borderColor: 'divider',
                bgcolor: message.mine
                  ? alpha(theme.palette.primary.main, 0.08)
                  : message.author_role === 'admin'
                    ? alpha(theme.palette.warning.main, 0.1)
                    : 'background.default',
              })}
            >
              <Typography variant="body2" color="text.secondary" data-testid="message-meta">
                <Box component="span" sx={{ fontWeight: 600, color: 'text.primary' }}>
                  {message.mine ? t('conversation.youAs', { author }) : author}
                </Box>
                {' · '}
                <time dateTime={message.created_at}>{formatDateTime(message.created_at, locale)}</time>
              </Typography>
              {message.text !== null && (
                <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="message-text">
                  {message.text}
                </Typography>
              )}
              {message.attachment && (
                <MessageAttachment base={base} messageId={message.id} attachment={message.attachment} fullHash={fullHash} />
              )}
            </Stack>
          </Box>
        )
      })}
    </Stack>
  )
}
