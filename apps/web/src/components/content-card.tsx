import Paper from '@mui/material/Paper'
import type { ReactNode } from 'react'

/** The white card page content sits on, above the background art. */
export function ContentCard({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Paper data-testid={testId} sx={{ p: { xs: 2.5, sm: 4 }, border: 1, borderColor: 'divider', borderRadius: 3, mb: 3 }}>
      {children}
    </Paper>
  )
}
