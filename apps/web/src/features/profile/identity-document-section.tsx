import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined'
import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { IdentityDocumentKind } from '@pactum/contracts/verification'
import { useEffect, useId, useRef } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocation } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { DocumentUploadSlot } from './document-upload-slot.tsx'
import { identityDocuments, identitySides, useDocumentStatus, useVerificationMethod } from './identity-api.ts'
import { Busy, LoadFailed } from './identity-load-states.tsx'
import { StripeIdentityVerification } from './stripe-identity-verification.tsx'

/** One legacy document: what it is, whether it is asked for, and its two sides. */
function LegacyDocument({ document }: { document: IdentityDocumentKind }) {
  const { t } = useTranslation()
  const status = useDocumentStatus(document)
  const headingId = useId()

  let body
  if (status.isPending) {
    body = <Busy label={t('identity.documentLoading')} />
  } else if (status.isError) {
    body = <LoadFailed label={t('identity.documentLoadFailed')} onRetry={() => void status.refetch()} />
  } else {
    const { required } = status.data
    body = (
      <>
        {required ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid={`identity-${document}-required`}>
            <ErrorOutlineIcon aria-hidden color="warning" fontSize="small" />
            <Typography variant="body2">{t('identity.required')}</Typography>
          </Stack>
        ) : (
          document === 'additional_identity_document' && (
            <Typography variant="body2" color="text.secondary" data-testid={`identity-${document}-not-required`}>
              {t('identity.notRequired')}
            </Typography>
          )
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 }}>
          {identitySides.map((side) => (
            <DocumentUploadSlot key={side} document={document} side={side} state={status.data[side]} documentHeadingId={headingId} />
          ))}
        </Box>
      </>
    )
  }

  return (
    <Stack component="section" aria-labelledby={headingId} spacing={1.5} data-testid={`identity-${document}`}>
      <Box>
        <Typography component="h3" variant="subtitle1" id={headingId} sx={{ fontWeight: 700 }}>
          {t(`identity.documents.${document}.title`)}
        </Typography>
        <Typography color="text.secondary">{t(`identity.documents.${document}.description`)}</Typography>
      </Box>
      {body}
    </Stack>
  )
}

function LegacyVerification() {
  const { t } = useTranslation()
  return (
    <Stack spacing={3} data-testid="identity-legacy">
      <Typography color="text.secondary">{t('identity.legacy.intro')}</Typography>
      {identityDocuments.map((document) => (
        <LegacyDocument key={document} document={document} />
      ))}
    </Stack>
  )
}

/**
 * Identity verification on the personal details page (the old
 * /profile/id-document routes redirect here, to #identity-document). The
 * server chooses the method: documents uploaded here, or the provider's
 * hosted verification.
 */
export function IdentityDocumentSection() {
  const { t } = useTranslation()
  const method = useVerificationMethod()
  const { hash } = useLocation()
  const section = useRef<HTMLElement>(null)
  const loaded = !method.isPending

  // The browser looks for #identity-document before this lazily loaded section exists.
  useEffect(() => {
    if (loaded && hash === '#identity-document') section.current?.scrollIntoView?.()
  }, [loaded, hash])

  let body
  if (method.isPending) {
    body = <Busy label={t('identity.loading')} testId="identity-loading" />
  } else if (method.isError) {
    body = <LoadFailed label={t('identity.loadFailed')} onRetry={() => void method.refetch()} testId="identity-error" />
  } else if (method.data.verification_method === 'legacy') {
    body = <LegacyVerification />
  } else {
    body = <StripeIdentityVerification />
  }

  return (
    <Box component="section" ref={section} id="identity-document" aria-labelledby="identity-document-title" sx={{ scrollMarginTop: 96 }}>
      <ContentCard testId="identity-document">
        <Typography component="h2" variant="h6" id="identity-document-title" sx={{ mb: 1.5 }}>
          {t('identity.title')}
        </Typography>
        {body}
      </ContentCard>
    </Box>
  )
}
