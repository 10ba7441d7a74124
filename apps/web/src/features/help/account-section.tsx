import Typography from '@mui/material/Typography'
import { type ReactNode, useId } from 'react'

/** One part of the Account page: its heading, which names the section for screen readers, and a line on what it is for. */
export function AccountSection({
  heading,
  intro,
  testId,
  children,
}: {
  heading: string
  intro: string
  testId?: string
  children: ReactNode
}) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} data-testid={testId}>
      <Typography component="h2" variant="h6" id={headingId} sx={{ mb: 1 }}>
        {heading}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {intro}
      </Typography>
      {children}
    </section>
  )
}
