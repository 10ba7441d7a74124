import { zodResolver } from '@hookform/resolvers/zod'
import Box from '@mui/material/Box'
import Checkbox from '@mui/material/Checkbox'
import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormGroup from '@mui/material/FormGroup'
import FormHelperText from '@mui/material/FormHelperText'
import FormLabel from '@mui/material/FormLabel'
import TextField from '@mui/material/TextField'
import {
  type PartnerEventType,
  partnerEventTypes,
  type WebhookEndpoint,
  webhookEndpointBodySchema,
} from '@pactum/contracts/partner-webhooks'
import { useId, useState } from 'react'
import type { z } from 'zod'
import { Controller, useForm } from 'react-hook-form'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { putRefusalOnField } from '../../lib/api/refusal-on-field.ts'
import {
  type CreatedWebhookEndpoint,
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  type WebhookEndpointBody,
} from './webhook-endpoints-api.ts'
import { ShownOnceDialog } from './shown-once-dialog.tsx'

/** The signing secret, shown this once: Pactum cannot show it again. */
function SecretDialog({ title, endpoint, onClose }: { title: string; endpoint: CreatedWebhookEndpoint; onClose: () => void }) {
  const { t } = useTranslation()
  const words = {
    title,
    warning: t('admin.webhooks.secret.shownOnce'),
    label: t('admin.webhooks.secret.label'),
    copy: t('admin.webhooks.secret.copy'),
    copied: t('admin.webhooks.secret.copied'),
    copyFailed: t('admin.webhooks.secret.copyFailed'),
    done: t('admin.webhooks.secret.done'),
  }
  const testId = { dialog: 'webhook-secret-dialog', value: 'webhook-secret-value', done: 'webhook-secret-done' }
  return <ShownOnceDialog value={endpoint.secret} words={words} testId={testId} onClose={onClose} />
}

/** Whether a refusal names the url field: a private, loopback or link-local address (`details.fields[].field`). */
function refusesUrl(error: unknown): boolean {
  if (!(error instanceof ApiError) || !Array.isArray(error.details.fields)) return false
  return error.details.fields.some(
    (entry: unknown) =>
      typeof entry === 'object' && entry !== null && 'field' in entry && String(entry.field).replace(/^body\./, '') === 'url',
  )
}

type EndpointForm = z.input<typeof webhookEndpointBodySchema>

/** Adds an endpoint: its address and the event types it hears (none ticked: every type); then its secret, once. */
export function AddEndpointDialog({ clientId, onClose }: { clientId: string; onClose: () => void }) {
  const { t } = useTranslation()
  const result = useResultModal()
  const create = useCreateWebhookEndpoint(clientId)
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null)
  const form = useForm<EndpointForm, unknown, WebhookEndpointBody>({
    resolver: zodResolver(webhookEndpointBodySchema),
    defaultValues: { url: '', event_types: [] },
  })
  const errors = form.formState.errors
  const legendId = useId()

  const submit = form.handleSubmit(async (values) => {
    try {
      setCreated(await create.mutateAsync(values))
    } catch (error) {
      if (refusesUrl(error) && putRefusalOnField(form.setError, 'url', t('admin.webhooks.form.errors.urlRefused'))) return
      onClose()
      result.showError(errorMessage(t, error))
    }
  })

  if (created) return <SecretDialog title={t('admin.webhooks.secret.createdTitle')} endpoint={created} onClose={onClose} />
  const urlError = errors.url
  return (
    <FormDialog
      title={t('admin.webhooks.form.title')}
      confirmLabel={t('admin.webhooks.form.create')}
      cancelLabel={t('admin.webhooks.cancel')}
      busy={create.isPending}
      onSubmit={submit}
      onClose={onClose}
      testId="webhook-endpoint-form"
    >
      <Controller
        control={form.control}
        name="url"
        render={({ field }) => (
          <TextField
            label={t('admin.webhooks.form.url')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            name={field.name}
            required
            error={urlError !== undefined}
            helperText={
              urlError
                ? urlError.type === 'server'
                  ? urlError.message
                  : t('admin.webhooks.form.errors.url')
                : t('admin.webhooks.form.urlHint')
            }
            slotProps={{ htmlInput: { 'data-testid': 'webhook-url', spellCheck: false, inputMode: 'url' } }}
          />
        )}
      />
      <Controller
        control={form.control}
        name="event_types"
        render={({ field }) => {
          const chosen: PartnerEventType[] = field.value ?? []
          return (
            <FormControl component="fieldset" variant="standard">
              <FormLabel component="legend" id={legendId}>
                {t('admin.webhooks.form.eventTypes')}
              </FormLabel>
              <FormHelperText sx={{ mx: 0 }}>{t('admin.webhooks.form.eventTypesHint')}</FormHelperText>
              <FormGroup
                sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}
                data-testid="webhook-event-types"
              >
                {partnerEventTypes.map((type) => (
                  <FormControlLabel
                    key={type}
                    label={<Box sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}>{type}</Box>}
                    control={
                      <Checkbox
                        size="small"
                        checked={chosen.includes(type)}
                        onChange={(event) =>
                          field.onChange(event.target.checked ? [...chosen, type] : chosen.filter((other) => other !== type))
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
            </FormControl>
          )
        }}
      />
    </FormDialog>
  )
}

/** A new secret after a confirmation; the old one keeps signing for 24 hours, so the partner can switch without losing a delivery. */
export function RotateSecretDialog({ clientId, endpoint, onClose }: { clientId: string; endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t } = useTranslation()
  const result = useResultModal()
  const rotate = useRotateWebhookSecret(clientId)
  const [rotated, setRotated] = useState<CreatedWebhookEndpoint | null>(null)
  if (rotated) return <SecretDialog title={t('admin.webhooks.secret.rotatedTitle')} endpoint={rotated} onClose={onClose} />
  return (
    <ConfirmDialog
      open
      title={t('admin.webhooks.rotate.title')}
      body={t('admin.webhooks.rotate.body', { url: endpoint.url })}
      confirmLabel={t('admin.webhooks.rotate.confirm')}
      cancelLabel={t('admin.webhooks.cancel')}
      busy={rotate.isPending}
      onConfirm={() =>
        rotate.mutate(endpoint.id, {
          onSuccess: setRotated,
          onError: (error) => {
            onClose()
            result.showError(errorMessage(t, error))
          },
        })
      }
      onClose={onClose}
      testId="webhook-rotate"
    />
  )
}

export function DeleteEndpointDialog({
  clientId,
  endpoint,
  onClose,
}: {
  clientId: string
  endpoint: WebhookEndpoint
  onClose: () => void
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const result = useResultModal()
  const remove = useDeleteWebhookEndpoint(clientId)
  return (
    <ConfirmDialog
      open
      title={t('admin.webhooks.delete.title')}
      body={t('admin.webhooks.delete.body', { url: endpoint.url })}
      confirmLabel={t('admin.webhooks.delete.confirm')}
      cancelLabel={t('admin.webhooks.cancel')}
      destructive
      busy={remove.isPending}
      onConfirm={() =>
        remove.mutate(endpoint.id, {
          onSuccess: () => {
            onClose()
            toast.show(t('admin.webhooks.delete.done'), { severity: 'success' })
          },
          onError: (error) => {
            onClose()
            result.showError(errorMessage(t, error))
          },
        })
      }
      onClose={onClose}
      testId="webhook-delete"
    />
  )
}
