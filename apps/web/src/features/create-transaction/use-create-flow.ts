import { useRef, useState } from 'react'
import type { FieldErrors, FieldValues, UseFormReturn } from 'react-hook-form'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import type { FeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import { invitedEmail, useGuestInviteForm } from './guest-invite.tsx'
import { useFocusOnStep } from './step-heading.tsx'

type Mutate<Body, Created> = (body: Body, options: { onSuccess: (created: Created) => void; onError: (error: unknown) => void }) => void

/**
 * What both build flows share: the step reached, the e-mailed invitation,
 * and the sending of the sale with the fee on screen (asked again, and
 * confirmed again, when the server finds it stale).
 */
export function useCreateFlow<Created>() {
  const { t } = useTranslation()
  const invalidForm = useInvalidFormSnackbar()
  const result = useResultModal()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [step, setStep] = useState(0)
  const [created, setCreated] = useState<Created | null>(null)
  const [invited, setInvited] = useState<string | null>(null)
  const inviteForm = useGuestInviteForm()
  useFocusOnStep(headingRef, step, created)

  /** Next goes to the step after; on `lastStep` the sale is created. */
  const submitSteps = <In extends FieldValues, Out>(
    form: UseFormReturn<In, unknown, Out>,
    fieldsByStep: readonly (readonly (keyof In)[])[],
    lastStep: number,
    create: (values: Out) => Promise<void>,
  ) =>
    form.handleSubmit(
      async (values) => {
        if (step < lastStep) {
          setStep(step + 1)
          return
        }
        await create(values)
      },
      // Only the fields of the steps reached so far count; later steps are not shown yet.
      (errors: FieldErrors<In>) => {
        const reached = fieldsByStep.slice(0, step + 1).flat()
        if (!reached.some((field) => errors[field])) {
          setStep(step + 1)
          form.clearErrors()
          return
        }
        invalidForm.show()
      },
    )

  const send = async <Body>(mutate: Mutate<Body, Created>, fee: FeeQuote, body: (guest: { counterparty_email?: string }) => Body) => {
    const guestEmail = await invitedEmail(inviteForm)
    if (guestEmail === undefined) {
      invalidForm.show()
      return
    }
    fee.clearFeeChanged()
    mutate(body(guestEmail ? { counterparty_email: guestEmail } : {}), {
      onSuccess: (transaction) => {
        setInvited(guestEmail)
        setCreated(transaction)
      },
      onError: (error) => {
        // The fee schedule moved under us: the new fee shows and the person confirms it.
        if (fee.recoverFromStaleFee(error)) return
        result.showError(errorMessage(t, error))
      },
    })
  }

  return { step, setStep, created, invited, inviteForm, headingRef, submitSteps, send }
}
