import { Component, type ReactNode } from 'react'
import { useTranslation } from '../i18n/react.tsx'
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
export class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }

  override componentDidCatch(error: unknown): void {
    console.error(error)
  }

  override render(): ReactNode {
    return this.state.failed ? <ChunkLoadError /> : this.props.children
  }
}
