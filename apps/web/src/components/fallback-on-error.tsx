import { Component, type ReactNode } from 'react'

/**
 * A lazily loaded part that cannot render (its chunk did not come: offline,
 * or a deploy replaced it) leaves `fallback` in its place, and the rest of
 * the page as it was.
 */
export class FallbackOnError extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }

  override componentDidCatch(error: unknown): void {
    console.error(error)
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}
