import UploadFileIcon from '@mui/icons-material/UploadFileOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import LinearProgress from '@mui/material/LinearProgress'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { DocumentSide, DocumentSideState, DocumentSideStatus, IdentityDocumentKind } from '@pactum/contracts/verification'
import type { TFunction } from '../../i18n/translator.ts'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { type StatusTone, statusTones } from '../../components/status-tones.ts'
import { visuallyHidden } from '../../components/visually-hidden.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useUploadDocument } from './identity-api.ts'

/** Spec §5: pdf, png, jpeg, jpg; the server checks the content again. */
export const acceptedExtensions = ['pdf', 'png', 'jpg', 'jpeg'] as const
export const acceptedFileTypes = ['application/pdf', 'image/png', 'image/jpeg'] as const
/** Spec §5 and §9: 10,000,000 bytes, not 10 MiB. */
export const maxUploadBytes = 10_000_000
const accept = [...acceptedExtensions.map((extension) => `.${extension}`), ...acceptedFileTypes].join(',')

export type FileProblem = 'wrongType' | 'empty' | 'tooLarge'

/** What is wrong with a chosen file before it is sent, or null. Either the name or the browser's type may vouch for the format. */
export function fileProblem(file: Pick<File, 'name' | 'type' | 'size'>): FileProblem | null {
  const dot = file.name.lastIndexOf('.')
  const extension = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : ''
  const known =
    (acceptedExtensions as readonly string[]).includes(extension) || (acceptedFileTypes as readonly string[]).includes(file.type)
  if (!known) return 'wrongType'
  if (file.size === 0) return 'empty'
  if (file.size > maxUploadBytes) return 'tooLarge'
  return null
}

const toneOf: Record<DocumentSideStatus, StatusTone> = {
  not_uploaded: 'closed',
  pending: 'waiting',
  verified: 'done',
  rejected: 'failed',
}

/** The field message of a validation error (`details.fields[0].message`), without the `file: ` prefix of its summary. */
function serverReason(error: ApiError): string {
  const fields = error.details.fields
  const first: unknown = Array.isArray(fields) ? fields[0] : undefined
  if (first && typeof first === 'object' && 'message' in first && typeof first.message === 'string') return first.message
  return error.message
}

/**
 * The server's answer to a refused upload. Size and format have codes of
 * their own; validation_failed (an empty file, a malformed form) is told
 * apart only by the server's own sentence, so that one is shown.
 */
function uploadErrorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'file_too_large' || error.status === 413) return t('identity.errors.serverTooLarge')
    if (error.code === 'unsupported_file_type') return t('identity.errors.serverWrongType')
    if (error.code === 'validation_failed') return t('identity.errors.serverRefused', { message: serverReason(error) })
  }
  return errorMessage(t, error)
}

export interface DocumentUploadSlotProps {
  document: IdentityDocumentKind
  side: DocumentSide
  state: DocumentSideState
  /** The id of the document's heading, so the slot is announced as "Identity document, Front". */
  documentHeadingId: string
}

/** One side of one identity document: its status, and a file upload checked here before it is sent. */
export function DocumentUploadSlot({ document, side, state, documentHeadingId }: DocumentUploadSlotProps) {
  const { t } = useTranslation()
  const upload = useUploadDocument(document)
  const input = useRef<HTMLInputElement>(null)
  const [problem, setProblem] = useState<{ kind: FileProblem; name: string } | null>(null)
  const ids = { heading: useId(), hint: useId(), message: useId() }
  const testId = `identity-slot-${document}-${side}`
  const { status } = state

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // Cleared so that choosing the same file again (after fixing it) fires another change.
    event.target.value = ''
    if (!file) return
    upload.reset()
    const found = fileProblem(file)
    setProblem(found && { kind: found, name: file.name })
    if (!found) upload.mutate({ side, file })
  }

  const message = problem
    ? t(`identity.errors.${problem.kind}`, { name: problem.name })
    : upload.isError
      ? uploadErrorText(t, upload.error)
      : null

  return (
    <Box
      role="group"
      aria-labelledby={`${documentHeadingId} ${ids.heading}`}
      data-testid={testId}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Typography component="h4" variant="subtitle1" id={ids.heading} sx={{ fontWeight: 600 }}>
          {t(`identity.sides.${side}`)}
        </Typography>
        <Chip
          label={t(`identity.status.${status}`)}
          size="small"
          data-testid={`${testId}-status`}
          data-status={status}
          sx={{ bgcolor: statusTones[toneOf[status]].bg, color: statusTones[toneOf[status]].fg, fontWeight: 600, maxWidth: '100%' }}
        />
      </Stack>
      {status === 'rejected' && state.rejection_reason && (
        <Typography color="error" variant="body2" data-testid={`${testId}-reason`}>
          {t('identity.rejectionReason', { reason: state.rejection_reason })}
        </Typography>
      )}
      {state.previously_submitted && status !== 'verified' && (
        <Typography color="text.secondary" variant="body2" data-testid={`${testId}-previous`}>
          {t('identity.previouslySubmitted')}
        </Typography>
      )}
      {status !== 'verified' && (
        <>
          {/* The real file input is hidden and out of the tab order; the button opens it, so keyboard users get a normal button. */}
          <input
            ref={input}
            type="file"
            accept={accept}
            tabIndex={-1}
            aria-hidden
            onChange={choose}
            data-testid={`${testId}-input`}
            style={visuallyHidden}
          />
          <Box>
            <Button
              variant={status === 'not_uploaded' ? 'contained' : 'outlined'}
              startIcon={<UploadFileIcon aria-hidden />}
              onClick={() => input.current?.click()}
              disabled={upload.isPending}
              aria-describedby={message ? `${ids.message} ${ids.hint}` : ids.hint}
              data-testid={`${testId}-upload`}
            >
              {status === 'not_uploaded' ? t('identity.upload') : t('identity.uploadAgain')}
            </Button>
          </Box>
          <Typography id={ids.hint} variant="caption" color="text.secondary">
            {t('identity.fileHint')}
          </Typography>
        </>
      )}
      {upload.isPending && (
        <Box role="status" data-testid={`${testId}-progress`}>
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            {t('identity.uploading', { name: upload.variables.file.name })}
          </Typography>
          <LinearProgress aria-label={t('identity.uploading', { name: upload.variables.file.name })} />
        </Box>
      )}
      {upload.isSuccess && status === 'pending' && !message && (
        <Typography role="status" variant="body2" color="text.secondary" data-testid={`${testId}-uploaded`}>
          {t('identity.uploaded', { name: upload.variables.file.name })}
        </Typography>
      )}
      {message && (
        <Alert severity="error" id={ids.message} data-testid={`${testId}-error`}>
          {message}
        </Alert>
      )}
    </Box>
  )
}
