import SendIcon from '@mui/icons-material/SendOutlined'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { TFunction } from '../../i18n/translator.ts'
import { type FormEvent, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { type ContactMessage, contactErrorMessage, contactLimits, emailPattern, sendContactMessage } from './contact-api.ts'
import { BusyButton } from '../../components/busy-button.tsx'

type Field = keyof ContactMessage
type Errors = Partial<Record<Field, string>>

export function validateContactMessage(values: ContactMessage, t: TFunction): Errors {
  const errors: Errors = {}
  const required = t('help.contactUs.form.required')
  if (!values.email.trim()) errors.email = required
  else if (!emailPattern.test(values.email.trim())) errors.email = t('help.contactUs.form.invalidEmail')
  if (!values.subject.trim()) errors.subject = required
  else if (values.subject.length > contactLimits.subject) {
    errors.subject = t('help.contactUs.form.tooLong', { max: contactLimits.subject })
  }
  if (!values.message.trim()) errors.message = required
  else if (values.message.length > contactLimits.message) {
    errors.message = t('help.contactUs.form.tooLong', { max: contactLimits.message })
  }
  return errors
}

/** The contact form of /profile/help/contact-us; the e-mail comes prefilled from the ID token. */
export function ContactForm() {
  const { t } = useTranslation()
  const api = useApiClient()
  const { user } = useAuth()
  const snackbar = useInvalidFormSnackbar()
  const resultModal = useResultModal()
  const [values, setValues] = useState<ContactMessage>({ email: user?.profile.email ?? '', subject: '', message: '' })
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)

  const update = (field: Field) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = event.target.value
    setValues((current) => ({ ...current, [field]: value }))
    // An error, once shown, follows the field as it is corrected.
    if (errors[field]) setErrors(validateContactMessage({ ...values, [field]: value }, t))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const found = validateContactMessage(values, t)
    setErrors(found)
    if (Object.keys(found).length > 0) {
      snackbar.show()
      return
    }
    setBusy(true)
    try {
      await sendContactMessage(api, {
        email: values.email.trim(),
        subject: values.subject.trim(),
        message: values.message.trim(),
      })
      setValues((current) => ({ ...current, subject: '', message: '' }))
      resultModal.showSuccess(t('help.contactUs.form.sent'))
    } catch (error) {
      resultModal.showError(contactErrorMessage(t, error))
    } finally {
      setBusy(false)
    }
  }

  const fieldProps = (field: Field) => ({
    value: values[field],
    onChange: update(field),
    error: Boolean(errors[field]),
    helperText: errors[field],
    required: true,
    disabled: busy,
    fullWidth: true,
  })

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="contact-form-title">
      <Typography id="contact-form-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('help.contactUs.form.title')}
      </Typography>
      <Stack spacing={2}>
        <TextField
          {...fieldProps('email')}
          label={t('help.contactUs.form.email')}
          type="email"
          autoComplete="email"
          slotProps={{ htmlInput: { 'data-testid': 'contact-email' } }}
        />
        <TextField
          {...fieldProps('subject')}
          label={t('help.contactUs.form.subject')}
          slotProps={{ htmlInput: { maxLength: contactLimits.subject, 'data-testid': 'contact-subject' } }}
        />
        <TextField
          {...fieldProps('message')}
          label={t('help.contactUs.form.message')}
          multiline
          minRows={5}
          slotProps={{ htmlInput: { maxLength: contactLimits.message, 'data-testid': 'contact-message' } }}
        />
        <BusyButton
          type="submit"
          variant="contained"
          busy={busy}
          startIcon={<SendIcon aria-hidden />}
          sx={{ alignSelf: 'flex-start' }}
          data-testid="contact-submit"
        >
          {t('help.contactUs.form.send')}
        </BusyButton>
      </Stack>
    </form>
  )
}
