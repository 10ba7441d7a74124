import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import type { PartnerClient } from '@pactum/contracts/partner-clients'
import { useTranslation } from 'react-i18next'
import type { ClientColours } from '../../lib/partner-client/client-colours.ts'

/** Spec §1: the partner's bar, in its colours, with the way back to its site. */
export function PartnerTopBar({ client, colours }: { client: PartnerClient; colours: ClientColours }) {
  const { t } = useTranslation()
  return (
    <Box
      component="nav"
      aria-label={t('partnerClient.barLabel', { name: client.name })}
      data-testid="partner-top-bar"
      sx={{ bgcolor: colours.barBackground, color: colours.barText, px: { xs: 2, md: 4 }, py: 1.25, position: 'relative', zIndex: 2 }}
    >
      <Link
        href={client.url}
        color="inherit"
        underline="hover"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, fontWeight: 600, '&:focus-visible': { outline: `2px solid ${colours.barText}`, outlineOffset: 2 } }}
      >
        <ArrowBackIcon fontSize="small" aria-hidden />
        {t('partnerClient.backTo', { name: client.name })}
      </Link>
    </Box>
  )
}
