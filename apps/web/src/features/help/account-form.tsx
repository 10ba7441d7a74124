import Button, { type ButtonProps } from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import type { FormEvent, ReactNode } from 'react'
import type { UseFormRegisterReturn } from 'react-hook-form'

/** The account page's forms all look alike: a narrow column, validated by the form's schema rather than the browser. */
export function AccountForm({
  onSubmit,
  testId,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>
  testId: string
  children: ReactNode
}) {
  return (
    <Stack component="form" noValidate spacing={2} sx={{ maxWidth: 420 }} onSubmit={(event) => void onSubmit(event)} data-testid={testId}>
      {children}
    </Stack>
  )
}

/** An account form's submit button, on a line of its own so it keeps its width. */
export function AccountFormSubmit(props: ButtonProps) {
  return (
    <div>
      <Button type="submit" variant="outlined" {...props} />
    </div>
  )
}

/** The current password that every change to the account's ways in asks for again. */
export function CurrentPasswordField({
  registration,
  label,
  error,
  testId,
}: {
  registration: UseFormRegisterReturn
  label: string
  error: string | undefined
  testId: string
}) {
  return (
    <TextField
      {...registration}
      type="password"
      autoComplete="current-password"
      required
      label={label}
      error={!!error}
      helperText={error}
      slotProps={{ htmlInput: { maxLength: 1024, 'data-testid': testId } }}
    />
  )
}
