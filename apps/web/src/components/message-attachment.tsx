import ContentCopyIcon from '@mui/icons-material/ContentCopyOutlined'
import DownloadIcon from '@mui/icons-material/DownloadOutlined'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { MessageView } from '@pactum/contracts/messages'
import { useState } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { useLocale } from '../i18n/use-locale.ts'
import { useApiClient } from '../lib/api/api-client-context.tsx'
import { errorMessage } from '../lib/api/error-message.ts'
import { fetchAttachment } from '../lib/api/messages.ts'
import { formatFileSize } from '../lib/file-size.ts'
import { saveBlob } from '../lib/save-blob.ts'
import { BusyButton } from './busy-button.tsx'
import { useToast } from './toasts.tsx'

type Attachment = NonNullable<MessageView['attachment']>

const typeNames: Record<Attachment['content_type'], string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'application/pdf': 'PDF' }

/** How much of the SHA-256 the parties see at a glance; the whole one is in the title and copied by the button. */
const shortHashLength = 12

/**
 * A message's file: a download button (fetched with the bearer token, saved
 * through an object URL), its type and size, and its SHA-256 as the history
 * records it, shortened unless `fullHash` (the admin weighs it as evidence).
 */
export function MessageAttachment({
  base,
  messageId,
  attachment,
  fullHash = false,
}: {
  base: string
  messageId: string
  attachment: Attachment
  fullHash?: boolean
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const api = useApiClient()
  const toast = useToast()
  const [busy, setBusy] = useState(false)

  const download = async () => {
    setBusy(true)
    try {
      saveBlob(await fetchAttachment(api, base, messageId), attachment.name)
    } catch (error) {
      toast.show(errorMessage(t, error), { severity: 'error' })
    } finally {
      setBusy(false)
    }
  }
  const copyHash = async () => {
    try {
      await navigator.clipboard.writeText(attachment.sha256)
      toast.show(t('conversation.attachment.hashCopied'), { severity: 'success' })
    } catch {
      toast.show(t('conversation.attachment.hashNotCopied'), { severity: 'error' })
    }
  }

  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start', minWidth: 0 }} data-testid="message-attachment">
      <BusyButton
        busy={busy}
        variant="outlined"
        size="small"
        startIcon={<DownloadIcon />}
        onClick={() => void download()}
        aria-label={t('conversation.attachment.download', { name: attachment.name })}
        sx={{ textTransform: 'none', maxWidth: '100%', textAlign: 'left', overflowWrap: 'anywhere', bgcolor: 'background.paper' }}
        data-testid="attachment-download"
      >
        {attachment.name}
      </BusyButton>
      <Typography variant="body2" color="text.secondary" data-testid="attachment-facts">
        {t('conversation.attachment.facts', { type: typeNames[attachment.content_type], size: formatFileSize(attachment.size, locale) })}
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', maxWidth: '100%' }}>
        <Typography variant="body2" color="text.secondary" sx={{ minWidth: 0 }} data-testid="attachment-sha256">
          SHA-256:{' '}
          <Box
            component="code"
            title={attachment.sha256}
            sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', wordBreak: 'break-all' }}
            data-testid="attachment-sha256-value"
          >
            {fullHash ? attachment.sha256 : `${attachment.sha256.slice(0, shortHashLength)}…`}
          </Box>
        </Typography>
        <IconButton
          size="small"
          onClick={() => void copyHash()}
          aria-label={t('conversation.attachment.copyHash')}
          data-testid="attachment-copy-hash"
        >
          <ContentCopyIcon fontSize="inherit" />
        </IconButton>
      </Stack>
    </Stack>
  )
}
