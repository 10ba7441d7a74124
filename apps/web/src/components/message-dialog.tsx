import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { createContext, type ReactNode, useCallback, useContext, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'

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
  const { t } = useTranslation()
  const titleId = useId()
  const bodyId = useId()
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
      <Dialog open={content !== null} onClose={close} aria-labelledby={titleId} aria-describedby={bodyId}>
        <DialogTitle id={titleId}>{content?.title}</DialogTitle>
        <DialogContent>
          <DialogContentText id={bodyId}>{content?.message}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={close} autoFocus>
            {t('feedback.ok')}
          </Button>
        </DialogActions>
      </Dialog>
    </MessageDialogContext>
  )
}

export function useMessageDialog(): MessageDialogApi {
  const api = useContext(MessageDialogContext)
  if (!api) throw new Error('useMessageDialog needs a <MessageDialogProvider>')
  return api
}
