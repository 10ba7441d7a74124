import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined'
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined'
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { Link as RouterLink } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { routeTo } from '../../lib/named-routes.ts'

/** The two ways in, the first one stressed: start a sale, or join one somebody else started. */
const ways = [
  { route: 'createTransaction', label: 'transactions.empty.create', variant: 'contained', Icon: AddCircleOutlineIcon },
  { route: 'joinTransaction', label: 'transactions.empty.join', variant: 'outlined', Icon: GroupAddOutlinedIcon },
] as const

/** A person with no transactions yet: how to start one, or join one. */
export function EmptyState() {
  const { t } = useTranslation()
  return (
    <ContentCard testId="transactions-empty">
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 3 }}>
        <Box aria-hidden sx={{ display: 'grid', placeItems: 'center', width: 72, height: 72, borderRadius: '50%', bgcolor: '#fce4ec' }}>
          <ReceiptLongOutlinedIcon sx={{ fontSize: 36, color: '#c2185b' }} />
        </Box>
        <Typography variant="h6" component="h2">
          {t('transactions.empty.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 460 }}>
          {t('transactions.empty.body')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {ways.map((way) => (
            <Button
              key={way.route}
              variant={way.variant}
              component={RouterLink}
              to={routeTo(way.route)}
              startIcon={<way.Icon aria-hidden />}
            >
              {t(way.label)}
            </Button>
          ))}
        </Stack>
      </Stack>
    </ContentCard>
  )
}
