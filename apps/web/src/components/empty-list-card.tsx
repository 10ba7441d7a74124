import Typography from '@mui/material/Typography'
import { ContentCard } from './content-card.tsx'

/** A list with nothing in it (none yet, or none that match): the card says so where the list would be. */
export function EmptyListCard({ title, body, testId }: { title: string; body: string; testId: string }) {
  return (
    <ContentCard testId={testId}>
      <Typography component="h2" variant="h6">
        {title}
      </Typography>
      <Typography color="text.secondary">{body}</Typography>
    </ContentCard>
  )
}
