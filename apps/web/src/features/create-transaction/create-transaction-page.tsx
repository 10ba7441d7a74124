import LocalShippingOutlinedIcon from '@mui/icons-material/LocalShippingOutlined'
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutlineOutlined'
import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormLabel from '@mui/material/FormLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import Step from '@mui/material/Step'
import StepLabel from '@mui/material/StepLabel'
import Stepper from '@mui/material/Stepper'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { type CreateMode, modeFromQuery, stepKeysByMode } from './create-mode.ts'

type Role = 'buyer' | 'seller'

function roleFromQuery(user: string | null): Role | '' {
  const value = user?.trim().toLowerCase()
  return value === 'buyer' || value === 'seller' ? value : ''
}

/** /create-transaction and /build-transaction: the same build screen. */
export function CreateTransactionPage() {
  const { t } = useTranslation()
  const [query] = useSearchParams()
  const [mode, setMode] = useState<CreateMode>(() => modeFromQuery(query.get('model')))
  const [role, setRole] = useState<Role | ''>(() => roleFromQuery(query.get('user')))
  // The step counter starts at 1; later steps arrive with the form itself.
  const [activeStep] = useState(0)
  const roleLabelId = useId()
  const steps = stepKeysByMode[mode]

  return (
    <>
      <PageHeader title={t('createTransaction.title')} intro={t('createTransaction.intro')} />
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

      <ContentCard>
        <Stepper activeStep={activeStep} alternativeLabel sx={{ mb: 3 }}>
          {steps.map((key) => (
            <Step key={key}>
              <StepLabel>{t(key)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        <Typography component="h2" variant="h6" data-testid="step-counter">
          {t('createTransaction.stepCounter', { current: activeStep + 1, total: steps.length })}
        </Typography>
        <FormControl sx={{ mt: 2 }}>
          <FormLabel id={roleLabelId}>{t('createTransaction.roleLabel')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby={roleLabelId}
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            <FormControlLabel value="seller" control={<Radio />} label={t('createTransaction.roles.seller')} />
            <FormControlLabel value="buyer" control={<Radio />} label={t('createTransaction.roles.buyer')} />
          </RadioGroup>
        </FormControl>
      </ContentCard>
    </>
  )
}
