import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown'
import { styled } from '@mui/material/styles'
import type { ComponentPropsWithoutRef, ReactNode } from 'react'

/**
 * An outlined field with its label always raised, drawn as MUI's outlined
 * TextField draws one (a notched border), around a native `<input>` or
 * `<select>`. The first screen's two fields (the search of My transactions
 * and the language picker) use it instead of MUI's FormControl / InputBase /
 * OutlinedInput / NativeSelect stack, which is ~9 kB gzipped of the first
 * load (issue 13). Both fields always show a raised label (the search has an
 * adornment, the select always a value), so the floating animation MUI's
 * stack exists for is not needed. Native controls keep keyboard, screen-reader
 * and phone behaviour.
 */

const Root = styled('div')(({ theme }) => ({
  ...theme.typography.body1,
  display: 'flex',
  flexDirection: 'column',
  position: 'relative',
  minWidth: 0,
  lineHeight: '1.4375em',
  color: theme.palette.text.primary,
}))

const Label = styled('label')(({ theme }) => ({
  ...theme.typography.body1,
  lineHeight: '1.4375em',
  position: 'absolute',
  left: 0,
  top: 0,
  zIndex: 1,
  maxWidth: 'calc(133% - 32px)',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  pointerEvents: 'none',
  transformOrigin: 'top left',
  transform: 'translate(14px, -9px) scale(0.75)',
  color: theme.palette.text.secondary,
  // Root:focus-within is what MUI's `focused` state means for a label.
  'div:focus-within > &': { color: theme.palette.primary.main },
}))

const Box = styled('div')(({ theme }) => ({
  position: 'relative',
  display: 'flex',
  alignItems: 'center',
  borderRadius: theme.shape.borderRadius,
  cursor: 'text',
  '&:hover > fieldset': { borderColor: theme.palette.text.primary },
  '&:focus-within > fieldset': { borderColor: theme.palette.primary.main, borderWidth: 2 },
  '& > svg': { flexShrink: 0 },
}))

// The notch: a legend as wide as the raised label keeps the border from running through it.
const Outline = styled('fieldset')({
  position: 'absolute',
  inset: '-5px 0 0',
  margin: 0,
  padding: '0 8px',
  pointerEvents: 'none',
  borderRadius: 'inherit',
  borderStyle: 'solid',
  borderWidth: 1,
  borderColor: 'rgba(0, 0, 0, 0.23)',
  overflow: 'hidden',
  minWidth: '0%',
  textAlign: 'left',
  '& > legend': {
    float: 'unset',
    width: 'auto',
    overflow: 'hidden',
    display: 'block',
    padding: 0,
    height: 11,
    fontSize: '0.75em',
    visibility: 'hidden',
    maxWidth: '100%',
    whiteSpace: 'nowrap',
  },
  '& > legend > span': { paddingLeft: 5, paddingRight: 5, display: 'inline-block', opacity: 0, visibility: 'visible' },
})

const controlStyles = {
  font: 'inherit',
  letterSpacing: 'inherit',
  color: 'currentColor',
  border: 0,
  boxSizing: 'content-box',
  background: 'none',
  height: '1.4375em',
  margin: 0,
  display: 'block',
  minWidth: 0,
  width: '100%',
  '&:focus': { outline: 0 },
} as const

const Input = styled('input')({
  ...controlStyles,
  padding: '16.5px 14px',
  '&[type=search]': { MozAppearance: 'textfield' },
})

const Select = styled('select')({
  ...controlStyles,
  padding: '8.5px 32px 8.5px 14px',
  appearance: 'none',
  borderRadius: 0,
  cursor: 'pointer',
  userSelect: 'none',
  '& + svg': {
    position: 'absolute',
    right: 7,
    top: 'calc(50% - 0.5em)',
    fontSize: '1.5rem',
    pointerEvents: 'none',
    color: 'rgba(0, 0, 0, 0.54)',
  },
})

const Helper = styled('p')(({ theme }) => ({
  ...theme.typography.caption,
  color: theme.palette.text.secondary,
  margin: '3px 14px 0',
  textAlign: 'left',
}))

/** The label, the outline and its notch, around whatever control `children` is. */
function Field({ id, label, helper, children }: { id: string; label: string; helper?: ReactNode; children: ReactNode }) {
  return (
    <Root>
      <Label htmlFor={id}>{label}</Label>
      <Box>
        {children}
        <Outline aria-hidden>
          <legend>
            <span>{label}</span>
          </legend>
        </Outline>
      </Box>
      {helper}
    </Root>
  )
}

export function OutlinedTextField({
  id,
  label,
  helperText,
  helperTextId,
  startIcon,
  ...input
}: Omit<ComponentPropsWithoutRef<'input'>, 'id'> & {
  id: string
  label: string
  helperText?: string
  helperTextId?: string
  /** Shown before the text, as MUI's start adornment (decorative). */
  startIcon?: ReactNode
}) {
  return (
    <Field id={id} label={label} helper={helperText && <Helper id={helperTextId}>{helperText}</Helper>}>
      {startIcon && <AdornmentSlot>{startIcon}</AdornmentSlot>}
      <Input id={id} aria-describedby={helperTextId} {...input} />
    </Field>
  )
}

const AdornmentSlot = styled('span')({
  display: 'flex',
  alignItems: 'center',
  paddingLeft: 14,
  marginRight: 8,
  color: 'rgba(0, 0, 0, 0.54)',
  '& + input': { paddingLeft: 0 },
})

export function OutlinedNativeSelect({
  id,
  label,
  children,
  ...select
}: Omit<ComponentPropsWithoutRef<'select'>, 'id'> & { id: string; label: string }) {
  return (
    <Field id={id} label={label}>
      <Select id={id} {...select}>
        {children}
      </Select>
      <ArrowDropDownIcon aria-hidden />
    </Field>
  )
}
