import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'

export interface DetailsRow {
  label: string
  value: ReactNode
  /** On the value, where tests and e2e read it. */
  testId: string
}

/** Stored facts as label/value rows of a definition list: side by side from `sm` up, stacked on phones. */
export function DetailsList({ rows, spaced = false }: { rows: DetailsRow[]; spaced?: boolean }) {
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { sm: '180px 1fr' }, gap: 1.5, m: 0, ...(spaced ? { mb: 2 } : {}) }}>
      {rows.map((row) => (
        // display: contents lets each dt/dd pair sit directly in the grid while keeping one React key per row.
        <Box key={row.testId} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary">
            {row.label}
          </Typography>
          <Typography component="dd" data-testid={row.testId} sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {row.value}
          </Typography>
        </Box>
      ))}
    </Box>
  )
}
