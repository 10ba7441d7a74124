import { zodResolver } from '@hookform/resolvers/zod'
import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import FormControlLabel from '@mui/material/FormControlLabel'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { AdminClient } from '@pactum/contracts/admin'
import { Controller, type FieldError, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { putRefusalOnField } from '../../lib/api/refusal-on-field.ts'
import { clientColours } from '../../lib/partner-client/client-colours.ts'
import { useSaveClient } from './admin-api.ts'
import {
  clientBody,
  type ClientFormField,
  type ClientFormInput,
  type ClientFormOutput,
  clientFormSchema,
  formValuesOf,
  serverFieldOf,
} from './client-form-model.ts'

const hexColour = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** How the partner's bar will look, with the text colour the app will really use. */
function BarPreview({ name, background, text }: { name: string; background: string; text: string }) {
  const { t } = useTranslation()
  if (!hexColour.test(background) || !hexColour.test(text)) return null
  const colours = clientColours(background, text)
  return (
    <Stack spacing={1}>
      <Typography variant="body2" color="text.secondary">
        {t('admin.clients.form.preview')}
      </Typography>
      <Box
        data-testid="client-bar-preview"
        sx={{
          bgcolor: colours.barBackground,
          color: colours.barText,
          px: 2,
          py: 1.25,
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          fontWeight: 600,
        }}
      >
        <ArrowBackIcon fontSize="small" aria-hidden />
        {t('partnerClient.backTo', { name: name.trim() || '…' })}
      </Box>
      {colours.barText.toLowerCase() !== text.toLowerCase() && (
        <Alert severity="warning" data-testid="client-contrast-warning">
          {t('admin.clients.form.lowContrast', { colour: colours.barText })}
        </Alert>
      )}
    </Stack>
  )
}

/** Adds a partner client (`client` null) or changes one; its id is fixed once made, since links and transactions carry it. */
export function ClientFormDialog({ client, onClose }: { client: AdminClient | null; onClose: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const result = useResultModal()
  const save = useSaveClient()
  const form = useForm<ClientFormInput, unknown, ClientFormOutput>({
    resolver: zodResolver(clientFormSchema),
    defaultValues: formValuesOf(client),
  })
  const [name, background, text] = useWatch({ control: form.control, name: ['name', 'background_color', 'text_color'] })
  const errors = form.formState.errors

  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(client ? { existing: client.client_id, body: clientBody(values) } : { existing: null, body: values })
      onClose()
      toast.show(t(client ? 'admin.clients.form.saved' : 'admin.clients.form.created', { name: values.name }), { severity: 'success' })
    } catch (error) {
      if (putRefusalOnField(form.setError, serverFieldOf(error), errorMessage(t, error))) return
      onClose()
      result.showError(errorMessage(t, error))
    }
  })

  /** The form's own checks read per field; the server's refusals as the server put them. */
  const errorText = (field: ClientFormField, error: FieldError | undefined) => {
    if (!error) return undefined
    return error.type === 'server' ? error.message : t(`admin.clients.form.errors.${field}`)
  }
  const textField = (
    field: ClientFormField,
    options: { helper?: string; disabled?: boolean; multiline?: boolean; adornment?: boolean } = {},
  ) => (
    <Controller
      control={form.control}
      name={field}
      render={({ field: input }) => (
        <TextField
          label={t(`admin.clients.form.${field}`)}
          value={input.value}
          onChange={input.onChange}
          onBlur={input.onBlur}
          inputRef={input.ref}
          name={input.name}
          disabled={options.disabled}
          multiline={options.multiline}
          minRows={options.multiline ? 3 : undefined}
          required={field !== 'routes' && field !== 'contact_email'}
          error={errors[field] !== undefined}
          helperText={errorText(field, errors[field]) ?? options.helper}
          slotProps={{
            htmlInput: { 'data-testid': `client-${field.replaceAll('_', '-')}`, spellCheck: false },
            input: options.adornment
              ? {
                  startAdornment: (
                    <Box
                      aria-hidden
                      sx={{
                        width: 20,
                        height: 20,
                        mr: 1,
                        borderRadius: 0.5,
                        border: 1,
                        borderColor: 'divider',
                        flexShrink: 0,
                        bgcolor: hexColour.test(String(input.value)) ? String(input.value) : 'transparent',
                      }}
                    />
                  ),
                }
              : undefined,
          }}
        />
      )}
    />
  )
  const toggle = (field: 'mobile_navbar_hidden' | 'show_seller_confirm_handover') => (
    <Controller
      control={form.control}
      name={field}
      render={({ field: input }) => (
        <FormControlLabel
          control={
            <Switch
              checked={input.value}
              onChange={(event) => input.onChange(event.target.checked)}
              slotProps={{ input: { 'data-testid': `client-${field.replaceAll('_', '-')}` } as object }}
            />
          }
          label={t(`admin.clients.form.${field}`)}
        />
      )}
    />
  )

  return (
    <FormDialog
      title={client ? t('admin.clients.form.editTitle', { name: client.name }) : t('admin.clients.form.createTitle')}
      confirmLabel={t(client ? 'admin.clients.form.save' : 'admin.clients.form.create')}
      cancelLabel={t('admin.clients.form.cancel')}
      busy={save.isPending}
      onSubmit={submit}
      onClose={onClose}
      testId="client-form"
    >
      {textField('client_id', {
        helper: t(client ? 'admin.clients.form.clientIdFixed' : 'admin.clients.form.clientIdHint'),
        disabled: client !== null,
      })}
      {textField('name')}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {textField('background_color', { helper: t('admin.clients.form.colourHint'), adornment: true })}
        {textField('text_color', { helper: t('admin.clients.form.colourHint'), adornment: true })}
      </Stack>
      <BarPreview name={name} background={background} text={text} />
      {textField('url', { helper: t('admin.clients.form.urlHint') })}
      {textField('routes', { helper: t('admin.clients.form.routesHint'), multiline: true })}
      {textField('contact_email', { helper: t('admin.clients.form.contactEmailHint') })}
      <Box>
        {toggle('mobile_navbar_hidden')}
        {toggle('show_seller_confirm_handover')}
      </Box>
      {client?.in_clients_file && (
        <Alert severity="info" data-testid="client-in-file-note">
          {t('admin.clients.form.inFileNote')}
        </Alert>
      )}
    </FormDialog>
  )
}
