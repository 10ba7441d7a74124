import LocalShippingOutlinedIcon from '@mui/icons-material/LocalShippingOutlined'
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutlineOutlined'
import Alert from '@mui/material/Alert'
import Skeleton from '@mui/material/Skeleton'
import Step from '@mui/material/Step'
import StepLabel from '@mui/material/StepLabel'
import Stepper from '@mui/material/Stepper'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { toLanguageTag } from '@pactum/domain/locales'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useSupportedCurrencies } from '../../lib/api/charge-quotes.ts'
import { fallbackCurrencies } from '../../lib/money.ts'
import { type CreateMode, modeFromQuery, stepKeysByMode } from './create-mode.ts'
import { OnlineCreateForm } from './online-create-form.tsx'
import { parsePrefill } from './prefill.ts'

/** /create-transaction and /build-transaction: the same build screen. */
export function CreateTransactionPage() {
  const { t } = useTranslation()
  const [query] = useSearchParams()
  const { locale } = useLocale()
  const [mode, setMode] = useState<CreateMode>(() => modeFromQuery(query.get('model')))
  const currencies = useSupportedCurrencies()
  const currencyList = useMemo(
    () => currencies.data ?? (currencies.isError ? [...fallbackCurrencies] : undefined),
    [currencies.data, currencies.isError],
  )
  const prefill = useMemo(() => (currencyList ? parsePrefill(query, currencyList) : undefined), [query, currencyList])
  const [prefillAlertOpen, setPrefillAlertOpen] = useState(true)

  return (
    <>
      <PageHeader title={t('createTransaction.title')} intro={t('createTransaction.intro')} />
      {prefill && prefill.invalid.length > 0 && prefillAlertOpen && (
        <Alert
          severity="warning"
          onClose={() => setPrefillAlertOpen(false)}
          slotProps={{ closeButton: { title: t('feedback.dismiss'), 'aria-label': t('feedback.dismiss') } }}
          sx={{ mb: 3 }}
          data-testid="prefill-invalid"
        >
          {t('createTransaction.prefill.invalid', {
            fields: new Intl.ListFormat(toLanguageTag(locale), { type: 'conjunction' }).format(
              prefill.invalid.map((name) => t(`createTransaction.prefill.fields.${name}`)),
            ),
          })}
        </Alert>
      )}
      <ContentCard>
        <Typography component="h2" variant="h6" sx={{ mb: 1.5 }}>
          {t('createTransaction.modeLabel')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          value={mode}
          onChange={(_, next: CreateMode | null) => next && setMode(next)}
          aria-label={t('createTransaction.modeLabel')}
          color="primary"
          sx={{ flexWrap: 'wrap' }}
        >
          <ToggleButton value="createTransactionOnline" data-testid="mode-online" sx={{ gap: 1, px: 2 }}>
            <LocalShippingOutlinedIcon aria-hidden />
            {t('createTransaction.modes.online')}
          </ToggleButton>
          <ToggleButton value="createTransactionFace" data-testid="mode-face" sx={{ gap: 1, px: 2 }}>
            <PeopleOutlineIcon aria-hidden />
            {t('createTransaction.modes.face')}
          </ToggleButton>
        </ToggleButtonGroup>
        <Typography color="text.secondary" sx={{ mt: 1.5 }}>
          {t(mode === 'createTransactionOnline' ? 'createTransaction.modeHint.online' : 'createTransaction.modeHint.face')}
        </Typography>
      </ContentCard>

      {mode === 'createTransactionOnline' ? (
        prefill && currencyList ? (
          <OnlineCreateForm prefill={prefill.values} currencies={currencyList} />
        ) : (
          <ContentCard>
            <Skeleton variant="rounded" height={180} aria-hidden />
            <Typography role="status" sx={{ mt: 1 }} color="text.secondary">
              {t('app.loading')}
            </Typography>
          </ContentCard>
        )
      ) : (
        <FaceToFaceFrame />
      )}
    </>
  )
}

/** Face-to-face keeps its frame until its own flow is built. */
function FaceToFaceFrame() {
  const { t } = useTranslation()
  const steps = stepKeysByMode.createTransactionFace
  return (
    <ContentCard>
      <Stepper activeStep={0} alternativeLabel sx={{ mb: 3 }}>
        {steps.map((key) => (
          <Step key={key}>
            <StepLabel>{t(key)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Typography component="h2" variant="h6" data-testid="step-counter">
        {t('createTransaction.stepCounter', { current: 1, total: steps.length })}
      </Typography>
      <Alert severity="info" sx={{ mt: 2 }} data-testid="face-not-available">
        {t('createTransaction.faceNotAvailable')}
      </Alert>
    </ContentCard>
  )
}
