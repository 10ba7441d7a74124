import Typography from '@mui/material/Typography'

/**
 * The top of an offer someone is about to join, buy from or claim: the item
 * as the card's heading, then who made the offer. Meant for a Stack, which
 * spaces the two lines.
 */
export function OfferHeading({
  description,
  maker,
  testIds,
}: {
  description: string
  maker: string
  testIds: { description: string; maker: string }
}) {
  return (
    <>
      <Typography component="h2" variant="h5" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }} data-testid={testIds.description}>
        {description}
      </Typography>
      <Typography data-testid={testIds.maker}>{maker}</Typography>
    </>
  )
}
