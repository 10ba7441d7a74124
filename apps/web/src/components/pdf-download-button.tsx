import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Stack from '@mui/material/Stack'
import { useState } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { useLocale } from '../i18n/use-locale.ts'
import { useApiClient } from '../lib/api/api-client-context.tsx'
import { saveBlob } from '../lib/save-blob.ts'

/** The PDFs the server writes about one transaction: their labels (`<document>.download`, …) and test ids. */
const documents = {
  caseFile: { testId: 'case-file', fileName: 'pactum-case' },
  receipt: { testId: 'receipt', fileName: 'pactum-receipt' },
} as const

/**
 * "Download case file (PDF)", "Download receipt (PDF)": `path` is the API
 * path of the document (`…/case_file`, `…/receipt`). The PDF is fetched with
 * the bearer token (a plain link would carry none), in the interface
 * language, and saved through an object URL under the name the server gives
 * it (the id's last 12 characters).
 */
export function PdfDownloadButton({
  document,
  path,
  transactionId,
}: {
  document: keyof typeof documents
  path: string
  transactionId: string
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const api = useApiClient()
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle')
  const { testId, fileName } = documents[document]

  const download = async () => {
    setState('loading')
    try {
      const pdf = await api.request<Blob>(path, { query: { lang: locale }, responseType: 'blob' })
      saveBlob(pdf, `${fileName}-${transactionId.slice(-12)}.pdf`)
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
        data-testid={`${testId}-download`}
      >
        {state === 'loading' ? t(`${document}.preparing`) : t(`${document}.download`)}
      </Button>
      {state === 'failed' && (
        <Alert severity="error" data-testid={`${testId}-error`}>
          {t(`${document}.failed`)}
        </Alert>
      )}
    </Stack>
  )
}
