import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Stack from '@mui/material/Stack'
import { useState } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { useLocale } from '../i18n/use-locale.ts'
import { useApiClient } from '../lib/api/api-client-context.tsx'
import { saveBlob } from '../lib/save-blob.ts'

/**
 * "Download case file (PDF)" for the admin console and the parties' case
 * card: `path` is the API path of the case file (`…/case_file`). The PDF is
 * fetched with the bearer token (a plain link would carry none), in the
 * interface language, and saved through an object URL under the name the
 * server gives it.
 */
export function CaseFileButton({ path, transactionId }: { path: string; transactionId: string }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const api = useApiClient()
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle')

  const download = async () => {
    setState('loading')
    try {
      const pdf = await api.request<Blob>(path, { query: { lang: locale }, responseType: 'blob' })
      saveBlob(pdf, `pactum-case-${transactionId.slice(-12)}.pdf`)
      setState('idle')
    } catch {
      setState('failed')
    }
  }

  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start', mt: 1 }}>
      <Button
        variant="outlined"
        onClick={() => void download()}
        disabled={state === 'loading'}
        startIcon={state === 'loading' ? <CircularProgress size={16} aria-hidden /> : undefined}
        data-testid="case-file-download"
      >
        {state === 'loading' ? t('caseFile.preparing') : t('caseFile.download')}
      </Button>
      {state === 'failed' && (
        <Alert severity="error" data-testid="case-file-error">
          {t('caseFile.failed')}
        </Alert>
      )}
    </Stack>
  )
}
