import AttachFileIcon from '@mui/icons-material/AttachFileOutlined'
import SendIcon from '@mui/icons-material/SendOutlined'
import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type ChangeEvent, type KeyboardEvent, useId, useRef, useState } from 'react'
import { type FieldError, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../i18n/react.tsx'
import { useLocale } from '../i18n/use-locale.ts'
import { errorMessage } from '../lib/api/error-message.ts'
import { usePostMessage } from '../lib/api/messages.ts'
import { formatFileSize } from '../lib/file-size.ts'
import { attachmentAccept, type MessageFormValues, messageFormSchema, refusedField } from '../lib/message-form.ts'
import { BusyButton } from './busy-button.tsx'

/**
 * Writes to the conversation at `base`: a text and, when `allowFile`, one
 * JPEG, PNG or PDF (checked here, again by the server). JSON without a file,
 * multipart with one. The typed text stays when sending fails; Ctrl+Enter sends.
 */
export function MessageComposer({ base, allowFile }: { base: string; allowFile: boolean }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const post = usePostMessage(base)
  const picker = useRef<HTMLInputElement>(null)
  const ids = { file: useId(), fileError: useId() }
  const [refusal, setRefusal] = useState<string | null>(null)
  const form = useForm<MessageFormValues>({ resolver: zodResolver(messageFormSchema), defaultValues: { text: '', file: null } })
  const file = useWatch({ control: form.control, name: 'file' })
  const { errors } = form.formState
  // Our own checks name a key; a server refusal is already a sentence (type 'server').
  const say = (error: FieldError | undefined) =>
    error?.message ? (error.type === 'server' ? error.message : t(`conversation.errors.${error.message}`)) : undefined

  const submit = form.handleSubmit(async (values) => {
    setRefusal(null)
    try {
      await post.mutateAsync(values)
      form.reset({ text: '', file: null })
    } catch (error) {
      const refused = refusedField(error)
      if (refused)
        form.setError(refused.field, { type: 'server', message: t(`conversation.errors.${refused.problem}`) }, { shouldFocus: true })
      else setRefusal(errorMessage(t, error))
    }
  })

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null
    // Cleared so that choosing the same file again fires another change.
    event.target.value = ''
    form.setValue('file', chosen, { shouldValidate: true })
  }
  const sendOnCtrlEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      void submit()
    }
  }
  const text = form.register('text')

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} data-testid="message-composer">
      <Stack spacing={1.5}>
        <TextField
          {...text}
          label={t('conversation.composer.textLabel')}
          multiline
          minRows={2}
          maxRows={10}
          fullWidth
          error={errors.text !== undefined}
          helperText={say(errors.text) ?? t('conversation.composer.textHint')}
          onKeyDown={sendOnCtrlEnter}
          slotProps={{ htmlInput: { 'data-testid': 'message-text-input', maxLength: 4000 } }}
        />
        {allowFile && (
          <Stack spacing={0.5}>
            <input
              ref={picker}
              id={ids.file}
              type="file"
              accept={attachmentAccept}
              hidden
              onChange={choose}
              aria-label={t('conversation.composer.fileLabel')}
              data-testid="message-file-input"
            />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
              <Button
                variant="outlined"
                startIcon={<AttachFileIcon />}
                onClick={() => picker.current?.click()}
                aria-describedby={errors.file ? ids.fileError : undefined}
                data-testid="message-attach"
              >
                {t(file ? 'conversation.composer.replaceFile' : 'conversation.composer.attachFile')}
              </Button>
              {file && (
                <>
                  <Typography sx={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="message-file-chosen">
                    {t('conversation.composer.chosen', { name: file.name, size: formatFileSize(file.size, locale) })}
                  </Typography>
                  <Button
                    size="small"
                    onClick={() => form.setValue('file', null, { shouldValidate: true })}
                    data-testid="message-file-remove"
                  >
                    {t('conversation.composer.removeFile')}
                  </Button>
                </>
              )}
            </Stack>
            <Typography
              variant="body2"
              color={errors.file ? 'error' : 'text.secondary'}
              id={ids.fileError}
              role={errors.file ? 'alert' : undefined}
              data-testid="message-file-help"
            >
              {say(errors.file) ?? t('conversation.composer.fileHint')}
            </Typography>
          </Stack>
        )}
        {refusal && (
          <Alert severity="error" data-testid="message-send-error">
            {refusal}
          </Alert>
        )}
        <Box>
          <BusyButton type="submit" variant="contained" busy={post.isPending} startIcon={<SendIcon />} data-testid="message-send">
            {t(post.isPending ? 'conversation.composer.sending' : 'conversation.composer.send')}
          </BusyButton>
        </Box>
      </Stack>
    </Box>
  )
}
