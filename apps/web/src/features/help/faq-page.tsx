import ExpandMoreIcon from '@mui/icons-material/ExpandMore'
import Accordion from '@mui/material/Accordion'
import AccordionDetails from '@mui/material/AccordionDetails'
import AccordionSummary from '@mui/material/AccordionSummary'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { complaintWindowHours } from '../../lib/constants.ts'
import { useGuidedTourLauncher } from '../../lib/guided-tour-launcher.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { termsPath } from '../../lib/terms-path.ts'

const questions = ['howItWorks', 'fee', 'sellerFee', 'release', 'complaints', 'faceToFace', 'refund', 'revoke'] as const

export function FaqPage() {
  const { t } = useTranslation()
  const complaintWindow = t('units.hours', { count: complaintWindowHours })
  const tour = useGuidedTourLauncher()
  return (
    <>
      <PageHeader
        title={t('help.faq.title')}
        intro={t('help.faq.intro')}
        breadcrumbs={[
          { label: t('menu.myProfile'), to: routeTo('personalDetails') },
          { label: t('profile.tabs.help'), to: routeTo('account') },
          { label: t('help.tabs.faq') },
        ]}
      />
      <Button variant="outlined" onClick={tour.reopen} sx={{ mb: 2 }} data-testid="open-guided-tour">
        {t('tour.reopen')}
      </Button>
      {questions.map((id) => (
        <Accordion
          key={id}
          disableGutters
          slotProps={{ heading: { component: 'h2' } }}
          sx={{ border: 1, borderColor: 'divider', '&:not(:last-of-type)': { mb: 1 } }}
        >
          <AccordionSummary expandIcon={<ExpandMoreIcon aria-hidden />} id={`faq-${id}-question`} aria-controls={`faq-${id}-answer`}>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {t(`help.faq.items.${id}.question`)}
            </Typography>
          </AccordionSummary>
          <AccordionDetails>
            <Typography color="text.secondary">{t(`help.faq.items.${id}.answer`, { window: complaintWindow })}</Typography>
          </AccordionDetails>
        </Accordion>
      ))}
      <Typography sx={{ mt: 3 }}>
        <Link href={termsPath} target="_blank" rel="noopener">
          {t('help.faq.termsLink')} <span>{t('onboarding.terms.newTab')}</span>
        </Link>
      </Typography>
    </>
  )
}
