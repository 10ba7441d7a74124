import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import ShareIcon from '@mui/icons-material/ShareOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { useTranslation } from '../i18n/react.tsx'
import { routeTo } from '../lib/named-routes.ts'
import { useToast } from './toasts.tsx'
import { LabelledCode } from './labelled-code.tsx'

export function joinLinkFor(code: string): string {
  return `${window.location.origin}${routeTo('joinTransactionByCode', { id: code })}`
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** The join code, big, with ways to copy it or send the join link to the other party. */
export function JoinCodeShare({ code, testId = 'join-code-display' }: { code: string; testId?: string }) {
  const { t } = useTranslation()
  const toast = useToast()
  const link = joinLinkFor(code)
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function'

  const copy = async (text: string, done: string) => {
    if (await copyText(text)) toast.show(done, { severity: 'success' })
    else toast.show(t('joinCode.copyFailed'), { severity: 'error' })
  }
  const share = async () => {
    try {
      await navigator.share({ title: t('joinCode.shareTitle'), text: t('joinCode.shareText', { code }), url: link })
    } catch {
      // Closing the share sheet rejects too; nothing to report.
    }
  }

  return (
    <Stack spacing={2}>
      <Box>
        <LabelledCode
          label={t('joinCode.label')}
          code={code}
          testId={testId}
          sx={{ fontSize: { xs: 32, sm: 44 }, fontWeight: 700, letterSpacing: '0.2em', overflowWrap: 'anywhere' }}
        />
      </Box>
      <Box>
        <Button
          variant="contained"
          startIcon={<ContentCopyIcon aria-hidden />}
          onClick={() => void copy(code, t('joinCode.codeCopied'))}
          data-testid="copy-join-code"
        >
          {t('joinCode.copyCode')}
        </Button>
      </Box>
      <TextField
        label={t('joinCode.linkLabel')}
        value={link}
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'join-link' } }}
        onFocus={(event) => event.target.select()}
        fullWidth
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button
          variant="outlined"
          startIcon={<ContentCopyIcon aria-hidden />}
          onClick={() => void copy(link, t('joinCode.linkCopied'))}
          data-testid="copy-join-link"
        >
          {t('joinCode.copyLink')}
        </Button>
        {canShare && (
          <Button variant="outlined" startIcon={<ShareIcon aria-hidden />} onClick={() => void share()} data-testid="share-join-link">
            {t('joinCode.share')}
          </Button>
        )}
      </Stack>
    </Stack>
  )
}
