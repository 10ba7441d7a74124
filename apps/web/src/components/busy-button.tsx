import Button, { type ButtonProps } from '@mui/material/Button'

export type BusyButtonProps = Omit<ButtonProps, 'loading' | 'loadingPosition'> & {
  /** Its request is running: the spinner takes the start icon's place and the button cannot be pressed again (MUI disables a loading button). */
  busy: boolean
}

/** A button that sends something: one look for "working on it" everywhere, and no second request while the first runs. */
export function BusyButton({ busy, ...props }: BusyButtonProps) {
  return <Button {...props} loading={busy} loadingPosition="start" />
}
