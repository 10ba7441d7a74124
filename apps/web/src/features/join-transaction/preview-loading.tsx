import Box from '@mui/material/Box'
import Skeleton from '@mui/material/Skeleton'
import Typography from '@mui/material/Typography'
import { ContentCard } from '../../components/content-card.tsx'

/** An offer's card while it loads: its outline for the eye, and `label` for screen readers (a polite status). */
export function PreviewLoading({ label }: { label: string }) {
  return (
    <ContentCard>
      <Box role="status" aria-live="polite">
        <Skeleton variant="text" width="60%" height={36} aria-hidden />
        <Skeleton variant="rounded" height={120} aria-hidden />
        <Typography color="text.secondary">{label}</Typography>
      </Box>
    </ContentCard>
  )
}
