import Box from '@mui/material/Box'
import type { ReactNode } from 'react'
import type { RouteArea } from './route-area.ts'

// Soft shapes at the edges of the page, in the Pactum palette: decoration only,
// kept light so text on top stays readable.
const art: Record<RouteArea, ReactNode> = {
  transactions: (
    <>
      <circle cx="1040" cy="90" r="220" fill="#fce4ec" />
      <circle cx="1150" cy="300" r="120" fill="#e6ebfb" />
      <rect x="860" y="520" width="260" height="36" rx="18" fill="#f8bbd0" opacity="0.5" />
      <rect x="920" y="580" width="200" height="36" rx="18" fill="#d4dcf7" opacity="0.7" />
      <circle cx="60" cy="760" r="160" fill="#e6ebfb" />
    </>
  ),
  create: (
    <>
      <path d="M760 0h440v380C1060 300 900 180 760 0Z" fill="#e8f5e9" />
      <path d="M1200 420v380H820c90-150 220-290 380-380Z" fill="#e6ebfb" />
      <circle cx="1010" cy="230" r="46" fill="none" stroke="#a5d6a7" strokeWidth="14" />
      <path d="M990 230h40M1010 210v40" stroke="#a5d6a7" strokeWidth="10" strokeLinecap="round" />
    </>
  ),
  join: (
    <>
      <circle cx="980" cy="170" r="130" fill="none" stroke="#bbdefb" strokeWidth="34" />
      <circle cx="1120" cy="260" r="130" fill="none" stroke="#d4dcf7" strokeWidth="34" />
      <circle cx="90" cy="720" r="180" fill="#e3f2fd" />
    </>
  ),
  profile: (
    <>
      <rect x="900" y="-80" width="380" height="380" rx="90" transform="rotate(12 1090 110)" fill="#fff6db" />
      <rect x="1000" y="420" width="220" height="220" rx="60" fill="#e6ebfb" />
      <circle cx="1080" cy="150" r="52" fill="#ffe9a8" />
      <path d="M990 290c20-70 160-70 180 0" fill="#ffe9a8" />
    </>
  ),
  help: (
    <>
      <circle cx="1060" cy="150" r="200" fill="#e6ebfb" />
      <g fill="#c5d0f5">
        {[0, 1, 2, 3, 4].map((row) =>
          [0, 1, 2, 3, 4].map((column) => <circle key={`${row}-${column}`} cx={860 + column * 36} cy={480 + row * 36} r="5" />),
        )}
      </g>
      <path d="M70 640a110 110 0 1 1 60 98l-70 32 18-64a110 110 0 0 1-8-66Z" fill="#eef1fc" />
    </>
  ),
}

export function RouteBackground({ area }: { area: RouteArea }) {
  return (
    <Box
      aria-hidden
      data-testid="route-background"
      data-area={area}
      sx={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none', zIndex: 0 }}
    >
      <svg
        width="100%"
        height="100%"
        viewBox="0 0 1200 800"
        preserveAspectRatio="xMaxYMin slice"
        aria-hidden="true"
        focusable="false"
        style={{ display: 'block' }}
      >
        {art[area]}
      </svg>
    </Box>
  )
}
