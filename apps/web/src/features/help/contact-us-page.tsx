import MailOutlineIcon from '@mui/icons-material/MailOutlineOutlined'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { ContactForm } from './contact-form.tsx'

export function ContactUsPage() {
  const { t } = useTranslation()
  const { support_email: supportEmail } = useClientConfig()
  return (
    <>
      <PageHeader
        title={t('help.contactUs.title')}
        intro={t('help.contactUs.intro')}
        breadcrumbs={[
          { label: t('menu.myProfile'), to: routeTo('personalDetails') },
          { label: t('profile.tabs.help'), to: routeTo('account') },
          { label: t('help.contactUs.title') },
        ]}
      />
      <ContentCard>
        <ContactForm />
      </ContentCard>
      <ContentCard>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <MailOutlineIcon aria-hidden color="primary" />
          <div>
            <Typography color="text.secondary">{t('help.contactUs.emailLabel')}</Typography>
            <Link href={`mailto:${supportEmail}`} data-testid="support-email" sx={{ fontSize: 18, fontWeight: 600 }}>
              {supportEmail}
            </Link>
          </div>
        </Stack>
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          {t('help.contactUs.tip')}
        </Typography>
      </ContentCard>
    </>
  )
}
