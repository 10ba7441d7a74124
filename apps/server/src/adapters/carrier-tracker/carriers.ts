import type { Carrier } from './port.ts'

/**
 * The carriers a seller can pick, by AfterShip-style slug (what a real
 * tracking API expects, and what a transaction stores). Sorted by name for
 * the picker.
 */
export const supportedCarriers: readonly Carrier[] = [
  { slug: 'an-post', name: 'An Post' },
  { slug: 'australia-post', name: 'Australia Post' },
  { slug: 'bpost', name: 'bpost' },
  { slug: 'canada-post', name: 'Canada Post' },
  { slug: 'colissimo', name: 'Colissimo' },
  { slug: 'correos-spain', name: 'Correos' },
  { slug: 'deutsch-post', name: 'Deutsche Post' },
  { slug: 'dhl', name: 'DHL' },
  { slug: 'dpd', name: 'DPD' },
  { slug: 'evri', name: 'Evri' },
  { slug: 'fedex', name: 'FedEx' },
  { slug: 'gls', name: 'GLS' },
  { slug: 'hrvatska-posta', name: 'Hrvatska pošta' },
  { slug: 'inpost-paczkomaty', name: 'InPost' },
  { slug: 'parcelforce', name: 'Parcelforce Worldwide' },
  { slug: 'poczta-polska', name: 'Poczta Polska' },
  { slug: 'malaysia-post', name: 'Pos Malaysia' },
  { slug: 'poste-italiane', name: 'Poste Italiane' },
  { slug: 'postnl', name: 'PostNL' },
  { slug: 'postnord', name: 'PostNord' },
  { slug: 'posti', name: 'Posti' },
  { slug: 'royal-mail', name: 'Royal Mail' },
  { slug: 'ups', name: 'UPS' },
  { slug: 'usps', name: 'USPS' },
]
