/**
 * A partner's colours, made safe to read (WCAG 2 AA, 4.5:1 for text): the
 * operator's text colour is used when it contrasts enough with the
 * background, otherwise black or white, whichever contrasts more. The
 * background becomes the app's primary colour only when it reads well as
 * text and buttons on the page's white.
 */
const minimumContrast = 4.5

function channels(hex: string): [number, number, number] {
  const digits = hex.replace('#', '')
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits
  return [0, 2, 4].map((start) => Number.parseInt(full.slice(start, start + 2), 16) / 255) as [number, number, number]
}

function luminance(hex: string): number {
  const [red, green, blue] = channels(hex).map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ]
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue
}

export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

export interface ClientColours {
  barBackground: string
  barText: string
  /** The app's primary colour, or null to keep the app's own. */
  primary: { main: string; contrastText: string } | null
}

export function clientColours(background: string, text: string): ClientColours {
  const barText =
    contrastRatio(background, text) >= minimumContrast
      ? text
      : contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff')
        ? '#000000'
        : '#ffffff'
  const primary = contrastRatio(background, '#ffffff') >= minimumContrast ? { main: background, contrastText: barText } : null
  return { barBackground: background, barText, primary }
}
