import LocalShippingOutlinedIcon from '@mui/icons-material/LocalShippingOutlined'
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutlineOutlined'
import Alert from '@mui/material/Alert'
import Skeleton from '@mui/material/Skeleton'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { toLanguageTag } from '@pactum/domain/locales'
import { useMemo, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useSearchParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useSupportedCurrencies } from '../../lib/api/charge-quotes.ts'
import { fallbackCurrencies } from '../../lib/money.ts'
import { type CreateMode, modeFromQuery } from './create-mode.ts'
import { FaceToFaceCreateForm } from './face-to-face-create-form.tsx'
import { OnlineCreateForm } from './online-create-form.tsx'
import { parsePrefill } from './prefill.ts'

/** /create-transaction and /build-transaction: the same build screen. */
const modeButton = { gap: 1, px: { xs: 1.5, sm: 2 }, flex: { xs: 1, sm: 'none' } } as const

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
          // Never wrapped (a wrapped group breaks into two half-bordered buttons): on a phone the two share the width.
          sx={{ width: { xs: '100%', sm: 'auto' } }}
        >
          <ToggleButton value="createTransactionOnline" data-testid="mode-online" sx={modeButton}>
            <LocalShippingOutlinedIcon aria-hidden />
            {t('createTransaction.modes.online')}
          </ToggleButton>
          <ToggleButton value="createTransactionFace" data-testid="mode-face" sx={modeButton}>
            <PeopleOutlineIcon aria-hidden />
            {t('createTransaction.modes.face')}
          </ToggleButton>
        </ToggleButtonGroup>
        <Typography color="text.secondary" sx={{ mt: 1.5 }}>
          {t(mode === 'createTransactionOnline' ? 'createTransaction.modeHint.online' : 'createTransaction.modeHint.face')}
        </Typography>
      </ContentCard>

      {!prefill || !currencyList ? (
        <ContentCard>
          <Skeleton variant="rounded" height={180} aria-hidden />
          <Typography role="status" sx={{ mt: 1 }} color="text.secondary">
            {t('app.loading')}
          </Typography>
        </ContentCard>
      ) : mode === 'createTransactionOnline' ? (
        <OnlineCreateForm prefill={prefill.values} currencies={currencyList} />
      ) : (
        <FaceToFaceCreateForm prefill={prefill.values} currencies={currencyList} />
      )}
    </>
  )
}
