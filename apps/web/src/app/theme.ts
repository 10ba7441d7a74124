import { createTheme } from '@mui/material/styles'
import { mobileBreakpointPx } from '../lib/constants.ts'

export const theme = createTheme({
  palette: {
    primary: { main: '#2949ce' },
    background: { default: '#f6f7fb' },
    text: { primary: '#1b1f2e', secondary: '#4a5068' },
  },
  // `md` is the spec's mobile breakpoint, so `up('md')` means "sidebar layout".
  breakpoints: { values: { xs: 0, sm: 600, md: mobileBreakpointPx, lg: 1280, xl: 1920 } },
  shape: { borderRadius: 12 },
  typography: {
    fontFamily: 'Roboto, system-ui, -apple-system, "Segoe UI", sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiPaper: { defaultProps: { elevation: 0 } },
  },
})
