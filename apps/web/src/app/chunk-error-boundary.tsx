import type { ReactNode } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { FallbackOnError } from '../components/fallback-on-error.tsx'
import { StatusMessage } from '../components/status-message.tsx'

function ChunkLoadError() {
  const { t } = useTranslation()
  return (
    <StatusMessage
      headingLevel="h1"
      title={t('errors.chunkLoad.title')}
      body={t('errors.chunkLoad.body')}
      action={{ label: t('errors.chunkLoad.reload'), onClick: () => window.location.reload() }}
    />
  )
}

/**
 * Catches a page that failed to render, most often a chunk that could not be
 * downloaded (offline, or a deploy replaced it). A reload fetches the current build.
 */
export function ChunkErrorBoundary({ children }: { children: ReactNode }) {
  return <FallbackOnError fallback={<ChunkLoadError />}>{children}</FallbackOnError>
}
