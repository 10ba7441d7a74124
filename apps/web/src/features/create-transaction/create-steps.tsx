import Step from '@mui/material/Step'
import StepLabel from '@mui/material/StepLabel'
import Stepper from '@mui/material/Stepper'
import { useTranslation } from '../../i18n/react.tsx'

/** The numbered steps of a build flow; `active` past the last marks them all done. */
export function CreateSteps({ steps, active }: { steps: readonly string[]; active: number }) {
  const { t } = useTranslation()
  return (
    <Stepper activeStep={active} alternativeLabel sx={{ mb: 3 }}>
      {steps.map((key) => (
        <Step key={key}>
          <StepLabel>{t(key)}</StepLabel>
        </Step>
      ))}
    </Stepper>
  )
}
