import Typography from '@mui/material/Typography'
import { normaliseJoinCodeInput } from '@pactum/domain/join-code-format'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { routeTo } from '../../lib/named-routes.ts'

/** /join-transaction/:id — the code arrives from the form or from a shared link. */
export function JoinByCodePage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  const code = normaliseJoinCodeInput(id)
  return (
    <>
      <PageHeader
        title={t('joinTransaction.title')}
        intro={t('joinTransaction.byCode.intro')}
        breadcrumbs={[
          { label: t('joinTransaction.title'), to: routeTo('joinTransaction') },
          { label: t('joinTransaction.byCode.crumb') },
        ]}
      />
      <ContentCard>
        <Typography variant="overline" component="p" color="text.secondary">
          {t('joinTransaction.codeLabel')}
        </Typography>
        <Typography data-testid="join-code" sx={{ fontFamily: 'monospace', fontSize: 28, letterSpacing: '0.3em' }}>
          {code}
        </Typography>
      </ContentCard>
    </>
  )
}
