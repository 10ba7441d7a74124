import Box from '@mui/material/Box'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { type FormEventHandler, type ReactNode, type RefObject, useId } from 'react'
import { ContentCard } from '../../components/content-card.tsx'
import { CreateSteps } from './create-steps.tsx'
import { CreatedTransaction } from './created-transaction.tsx'
import { StepHeading } from './step-heading.tsx'

/**
 * The create flow's frame, for both kinds: the steps above, then either the
 * sale just created or the current step's form, named by its heading.
 * `shownSteps` are the steps drawn (the last changes when the other party is
 * invited by e-mail), `steps` those the heading counts.
 */
export function CreateFormFrame({
  steps,
  shownSteps = steps,
  step,
  created,
  flow,
  onSubmit,
  children,
}: {
  steps: readonly string[]
  shownSteps?: readonly string[]
  step: number
  created: AnyTransaction | null
  flow: { headingRef: RefObject<HTMLHeadingElement | null>; invited: string | null }
  onSubmit: FormEventHandler<HTMLFormElement>
  children: ReactNode
}) {
  const headingId = useId()
  if (created) {
    return (
      <ContentCard testId="transaction-created">
        <CreateSteps steps={shownSteps} active={shownSteps.length} />
        <CreatedTransaction transaction={created} headingRef={flow.headingRef} invitedEmail={flow.invited} />
      </ContentCard>
    )
  }
  return (
    <ContentCard>
      <CreateSteps steps={shownSteps} active={step} />
      <StepHeading id={headingId} headingRef={flow.headingRef} step={step} steps={steps} />
      <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={headingId} data-testid={`create-step-${step + 1}`}>
        {children}
      </Box>
    </ContentCard>
  )
}
