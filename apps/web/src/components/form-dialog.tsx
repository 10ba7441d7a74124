import Stack from '@mui/material/Stack'
import type { ReactNode } from 'react'
import { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog.tsx'

export type FormDialogProps = Omit<ConfirmDialogProps, 'open' | 'onConfirm' | 'children'> & {
  /** The form's submit as react-hook-form's `handleSubmit` makes it: checks the fields, then sends. */
  onSubmit: () => Promise<void>
  /** Space between the fields, in MUI spacing units. */
  spacing?: number
  children: ReactNode
}

/** A form in a dialog, open while it is mounted: ConfirmDialog's title, text and buttons around a column of fields. */
export function FormDialog({ onSubmit, spacing = 2.5, children, ...dialog }: FormDialogProps) {
  return (
    <ConfirmDialog open {...dialog} onConfirm={() => void onSubmit()}>
      {/* pt keeps the first field's floating label clear of the dialog's title. */}
      <Stack spacing={spacing} sx={{ pt: 1 }}>
        {children}
      </Stack>
    </ConfirmDialog>
  )
}
