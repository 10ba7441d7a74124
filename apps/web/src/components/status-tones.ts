/**
 * Background and text colours for status chips, chosen for at least 4.5:1
 * contrast so the chip text stays readable. Shared so a transaction and a
 * payout in the same state look alike.
 */
export const statusTones = {
  waiting: { bg: '#e3f2fd', fg: '#0d3c87' },
  /** The reader's own step: the sale waits for them. */
  action: { bg: '#2949ce', fg: '#ffffff' },
  progress: { bg: '#e8eaf6', fg: '#1a237e' },
  attention: { bg: '#fff3e0', fg: '#7a3e00' },
  failed: { bg: '#ffebee', fg: '#b71c1c' },
  done: { bg: '#e8f5e9', fg: '#1b5e20' },
  closed: { bg: '#eceff1', fg: '#37474f' },
} as const

export type StatusTone = keyof typeof statusTones
