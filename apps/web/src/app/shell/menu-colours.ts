/**
 * The four menu colours (spec §2). Labels stay in dark text; the colour sits
 * in the icon badge and the active highlight, each pairing checked for at
 * least 4.5:1 contrast (white on green 5.1, blue 5.8, pink 5.9; dark brown on yellow 10+).
 */
export const menuColours = {
  green: { badge: '#2e7d32', icon: '#ffffff', tint: '#e8f5e9' },
  blue: { badge: '#1565c0', icon: '#ffffff', tint: '#e3f2fd' },
  pink: { badge: '#c2185b', icon: '#ffffff', tint: '#fce4ec' },
  yellow: { badge: '#f6c343', icon: '#3d2e00', tint: '#fff6db' },
} as const

export type MenuColour = keyof typeof menuColours
