import type { SxProps, Theme } from '@mui/material/styles'
import Typography from '@mui/material/Typography'

/**
 * A code to read out or type in (a join code, a transaction's reference):
 * a small caption, then the code in a monospace font so that look-alike
 * characters stay apart. `sx` sizes the code for its place.
 */
export function LabelledCode({ label, code, testId, sx = [] }: { label: string; code: string; testId: string; sx?: SxProps<Theme> }) {
  return (
    <>
      <Typography variant="overline" component="p" color="text.secondary">
        {label}
      </Typography>
      <Typography data-testid={testId} sx={[{ fontFamily: 'monospace' }, ...(Array.isArray(sx) ? sx : [sx])]}>
        {code}
      </Typography>
    </>
  )
}
