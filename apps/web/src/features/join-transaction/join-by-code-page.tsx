import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { checkJoinCode, type JoinCodeCheck, joinCodeLength } from '@pactum/domain/join-code-format'
import { useTranslation } from '../../i18n/react.tsx'
import { Navigate, Link as RouterLink, useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { useJoinPreview } from './join-api.ts'
import { readJoinInput } from './join-input.ts'
import { PreviewCard } from './join-preview-card.tsx'
import { PreviewLoading } from './preview-loading.tsx'
import { LabelledCode } from '../../components/labelled-code.tsx'

/** /join-transaction/:id — the code arrives from the form or from a shared link. */
export function JoinByCodePage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  // A link's code is read whole: one with characters outside the alphabet is not valid, rather than looked up without them.
  const check = checkJoinCode(id)
  const code = check.valid ? check.code : ''
  const preview = useJoinPreview(code, check.valid)
  // A listing code in a join-code link (built by hand, say) is no mistake: open the listing.
  const asListing = readJoinInput(id)
  if (asListing.valid && asListing.kind === 'listing') return <Navigate to={asListing.path} replace />

  return (
    <>
      <PageHeader
        title={t('joinTransaction.title')}
        // Said only of a transaction found: above "there is no transaction with this code" it would contradict it.
        // Their own earlier join: the code has done its work, nothing is about to happen.
        intro={
          preview.data ? t(preview.data.joined_by_you ? 'joinTransaction.byCode.introJoined' : 'joinTransaction.byCode.intro') : undefined
        }
        breadcrumbs={[{ label: t('joinTransaction.title'), to: routeTo('joinTransaction') }, { label: t('joinTransaction.byCode.crumb') }]}
      />
      {!check.valid ? (
        <InvalidCode check={check} />
      ) : (
        <>
          <ContentCard>
            <LabelledCode
              label={t('joinTransaction.codeLabel')}
              code={code}
              testId="join-code"
              sx={{ fontSize: 28, letterSpacing: '0.3em' }}
            />
          </ContentCard>
          {preview.isPending ? (
            <PreviewLoading label={t('joinTransaction.preview.loading')} />
          ) : preview.isError ? (
            <LoadErrorAlert
              error={preview.error}
              onRetry={() => void preview.refetch()}
              testId="join-error"
              actions={
                <Button color="inherit" component={RouterLink} to={routeTo('joinTransaction')}>
                  {t('joinTransaction.preview.otherCode')}
                </Button>
              }
            />
          ) : (
            <PreviewCard code={code} preview={preview.data} />
          )}
        </>
      )}
    </>
  )
}

/** A link whose code cannot be one: said plainly, with the ways on (type the code, or go to My transactions). */
function InvalidCode({ check }: { check: Exclude<JoinCodeCheck, { valid: true }> }) {
  const { t } = useTranslation()
  return (
    <ContentCard testId="join-code-invalid">
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography component="h2" variant="h5" sx={{ fontWeight: 700 }}>
          {t('joinTransaction.byCode.invalidTitle')}
        </Typography>
        {check.reason === 'characters' && (
          <Typography data-testid="join-code-invalid-characters">
            {t('joinTransaction.charactersNotAllowed', { characters: check.characters })}
          </Typography>
        )}
        <Typography color="text.secondary">
          {t('joinTransaction.codeRules', { length: joinCodeLength })} {t('joinTransaction.byCode.invalidBody')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" component={RouterLink} to={routeTo('joinTransaction')} data-testid="join-enter-code">
            {t('joinTransaction.byCode.enterCode')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={routeTo('transactions')} data-testid="join-to-transactions">
            {t('transactions.title')}
          </Button>
        </Stack>
      </Stack>
    </ContentCard>
  )
}
