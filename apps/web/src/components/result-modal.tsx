import { createContext, lazy, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react'
import { Deferred } from './deferred.tsx'

// The dialog itself is fetched the first time a result is shown.
const ResultDialog = lazy(() => import('./result-dialog.tsx').then((module) => ({ default: module.ResultDialog })))

export interface ResultModalOptions {
  /** Close on its own after this long (the spec's 1 s error flashes, for example). */
  autoCloseMs?: number
  onClose?: () => void
}

export interface ResultModalApi {
  showSuccess: (message: string, options?: ResultModalOptions) => void
  showError: (message: string, options?: ResultModalOptions) => void
  close: () => void
}

export interface ResultState extends ResultModalOptions {
  kind: 'success' | 'error'
  message: string
}

const ResultModalContext = createContext<ResultModalApi | null>(null)

/** The full-screen 'Success!' / 'Error!' modal of the shell (spec §2). */
export function ResultModalProvider({ children }: { children: ReactNode }) {
  const [result, setResult] = useState<ResultState | null>(null)

  const resultRef = useRef<ResultState | null>(null)
  const open = useCallback((next: ResultState | null) => {
    resultRef.current = next
    setResult(next)
  }, [])
  const close = useCallback(() => {
    const closing = resultRef.current
    open(null)
    closing?.onClose?.()
  }, [open])

  const api = useMemo<ResultModalApi>(
    () => ({
      showSuccess: (message, options) => open({ kind: 'success', message, ...options }),
      showError: (message, options) => open({ kind: 'error', message, ...options }),
      close,
    }),
    [open, close],
  )

  return (
    <ResultModalContext value={api}>
      {children}
      <Deferred when={result !== null}>
        <ResultDialog result={result} onClose={close} />
      </Deferred>
    </ResultModalContext>
  )
}

export function useResultModal(): ResultModalApi {
  const api = useContext(ResultModalContext)
  if (!api) throw new Error('useResultModal needs a <ResultModalProvider>')
  return api
}
