import type { SvgIconComponent } from '@mui/icons-material'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'

/** A card's h2 with its icon before it; the icon is decoration, the title says it all. */
export function IconHeading({ Icon, title }: { Icon: SvgIconComponent; title: string }) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
      <Icon aria-hidden sx={{ color: 'primary.main' }} />
      <Typography component="h2" variant="h6">
        {title}
      </Typography>
    </Stack>
  )
}
