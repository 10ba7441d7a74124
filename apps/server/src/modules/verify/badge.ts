import type { PublicVerification } from '@pactum/contracts/verify'
import { type CurrencyCode, isSupportedCurrency, minorUnitsToDecimalString } from '@pactum/domain/currencies'

/**
 * The badge a partner embeds beside a sale (`GET /verify/{code}/badge.svg`,
 * decision 114): "Escrow verified by Pactum · <state> · <amount>", drawn by
 * Pactum from its own data, so a page showing it can only show what Pactum
 * says. Every text is escaped and the SVG holds no script, link or
 * external reference; the route adds a CSP that forbids them anyway.
 */
const stateWords: Record<PublicVerification['state'], string> = {
  awaiting_payment: 'Not paid yet',
  held: 'Money held',
  released: 'Released to seller',
  refunded: 'Refunded to buyer',
  cancelled: 'Cancelled',
}

const colours: Record<PublicVerification['state'], string> = {
  awaiting_payment: '#5f6368',
  held: '#1b5e20',
  released: '#0d47a1',
  refunded: '#4a148c',
  cancelled: '#5f6368',
}

export function badgeSvg(verification: PublicVerification): string {
  const left = 'Escrow verified by Pactum'
  const right = `${stateWords[verification.state]} · ${formattedAmount(verification.amount, verification.currency)}`
  // Verdana-ish metrics at 11 px: about 6.5 px a character, plus padding; the SVG scales if a renderer differs.
  const leftWidth = Math.round(left.length * 6.5 + 16)
  const rightWidth = Math.round(right.length * 6.5 + 16)
  const width = leftWidth + rightWidth
  const label = `${left}: ${right}`
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${escapeXml(label)}">`,
    `<title>${escapeXml(label)}</title>`,
    `<rect width="${leftWidth}" height="20" fill="#263238"/>`,
    `<rect x="${leftWidth}" width="${rightWidth}" height="20" fill="${colours[verification.state]}"/>`,
    '<g fill="#ffffff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">',
    `<text x="8" y="14">${escapeXml(left)}</text>`,
    `<text x="${leftWidth + 8}" y="14">${escapeXml(right)}</text>`,
    '</g>',
    '</svg>',
  ].join('')
}

/** `€103.40`: English, as the badge is; a currency the server no longer knows is shown by its code. */
export function formattedAmount(amount: number, currency: string): string {
  if (!isSupportedCurrency(currency)) return `${amount} ${currency.toUpperCase()}`
  const decimal = minorUnitsToDecimalString(amount, currency as CurrencyCode)
  const digits = decimal.includes('.') ? decimal.split('.')[1]!.length : 0
  return new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(Number(decimal))
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
