import { createContext, lazy, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react'
import { Deferred } from './deferred.tsx'

// The dialog itself is fetched the first time a message is shown.
const MessageDialogView = lazy(() => import('./message-dialog-view.tsx').then((module) => ({ default: module.MessageDialogView })))

export interface MessageDialogContent {
  title: string
  message: string
}

export interface MessageDialogApi {
  /** Opens a dialog with an OK button; resolves once it is closed. */
  show: (content: MessageDialogContent) => Promise<void>
}

const MessageDialogContext = createContext<MessageDialogApi | null>(null)

export function MessageDialogProvider({ children }: { children: ReactNode }) {
  const [content, setContent] = useState<MessageDialogContent | null>(null)
  const resolveRef = useRef<(() => void) | undefined>(undefined)

  const show = useCallback((next: MessageDialogContent) => {
    resolveRef.current?.()
    setContent(next)
    return new Promise<void>((resolve) => {
      resolveRef.current = resolve
    })
  }, [])
  const close = useCallback(() => {
    setContent(null)
    resolveRef.current?.()
    resolveRef.current = undefined
  }, [])
  const api = useMemo(() => ({ show }), [show])

  return (
    <MessageDialogContext value={api}>
      {children}
      <Deferred when={content !== null}>
        <MessageDialogView content={content} onClose={close} />
      </Deferred>
    </MessageDialogContext>
  )
}

export function useMessageDialog(): MessageDialogApi {
  const api = useContext(MessageDialogContext)
  if (!api) throw new Error('useMessageDialog needs a <MessageDialogProvider>')
  return api
}
