import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { useId } from 'react'
import { useToast } from '../../components/toasts.tsx'

/** What the dialog says, in the caller's words (each secret has its own). */
export interface ShownOnceWords {
  title: string
  warning: string
  label: string
  copy: string
  copied: string
  copyFailed: string
  done: string
}

/**
 * A secret Pactum shows this once and keeps only as a hash or for signing
 * (a partner's API key, a webhook endpoint's signing secret): the warning,
 * the value selected on focus, a copy button, and done.
 */
export function ShownOnceDialog({
  value,
  words,
  testId,
  onClose,
}: {
  value: string
  words: ShownOnceWords
  /** `client-api-key` gives `client-api-key-issued`, `client-api-key-value` and `client-api-key-done`. */
  testId: { dialog: string; value: string; done: string }
  onClose: () => void
}) {
  const toast = useToast()
  const titleId = useId()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      toast.show(words.copied, { severity: 'success' })
    } catch {
      toast.show(words.copyFailed, { severity: 'error' })
    }
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" data-testid={testId.dialog}>
      <DialogTitle id={titleId}>{words.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{words.warning}</Alert>
          <TextField
            label={words.label}
            value={value}
            multiline
            fullWidth
            slotProps={{
              htmlInput: { readOnly: true, 'data-testid': testId.value, spellCheck: false, style: { fontFamily: 'monospace' } },
            }}
            onFocus={(event) => event.target.select()}
          />
          <Button
            variant="outlined"
            startIcon={<ContentCopyIcon aria-hidden />}
            onClick={() => void copy()}
            sx={{ alignSelf: 'flex-start' }}
          >
            {words.copy}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose} data-testid={testId.done}>
          {words.done}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
