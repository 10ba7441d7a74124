import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Typography from '@mui/material/Typography'

export interface StatusMessageProps {
  title: string
  body?: string
  busy?: boolean
  action?: { label: string; onClick: () => void }
  /** h1 when the message is the whole page, h2 inside a page that has its own. */
  headingLevel?: 'h1' | 'h2'
}

/** A centred progress or error message with an optional action. */
export function StatusMessage({ title, body, busy, action, headingLevel = 'h2' }: StatusMessageProps) {
  return (
    <Box
      role={busy ? 'status' : undefined}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 8, px: 2, textAlign: 'center' }}
    >
      {busy && <CircularProgress aria-hidden />}
      <Typography variant="h5" component={headingLevel}>
        {title}
      </Typography>
      {body && <Typography color="text.secondary">{body}</Typography>}
      {action && (
        <Button variant="contained" onClick={action.onClick}>
          {action.label}
        </Button>
      )}
    </Box>
  )
}

/** The same message as the only content of the page, before the shell exists. */
export function FullPageStatus(props: Omit<StatusMessageProps, 'headingLevel'>) {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <StatusMessage {...props} headingLevel="h1" />
    </Box>
  )
}
