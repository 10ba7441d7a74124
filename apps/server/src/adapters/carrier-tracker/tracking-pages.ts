/**
 * Each carrier's public tracking page, by the slug a transaction stores, as
 * an https address with `{code}` where the tracking code goes. Only
 * carriers whose page opens a parcel from the address alone are here (docs/decisions/103-names-tracking-links-quiet-saves.md
 * lists the sources): PostNL wants the recipient's postcode too, and
 * bpost, Canada Post, Correos, DPD, GLS, Hrvatska pošta, Pos Malaysia and
 * Poste Italiane answer by country or by a form, so their codes stay plain
 * text rather than a link that lands somewhere useless.
 */
const trackingPageTemplates: Readonly<Record<string, string>> = {
  'an-post': 'https://www.anpost.com/Post-Parcels/Track/History?item={code}',
  'australia-post': 'https://auspost.com.au/mypost/track/details/{code}',
  colissimo: 'https://www.laposte.fr/outils/suivre-vos-envois?code={code}',
  'deutsch-post': 'https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode={code}',
  dhl: 'https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id={code}',
  evri: 'https://www.evri.com/track/parcel/{code}',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr={code}',
  'inpost-paczkomaty': 'https://inpost.pl/sledzenie-przesylek?number={code}',
  parcelforce: 'https://www.parcelforce.com/track-trace?trackNumber={code}',
  'poczta-polska': 'https://emonitoring.poczta-polska.pl/?numer={code}',
  posti: 'https://www.posti.fi/fi/seuranta#/lahetys/{code}',
  postnord: 'https://tracking.postnord.com/?id={code}',
  'royal-mail': 'https://www.royalmail.com/track-your-item#/tracking-results/{code}',
  ups: 'https://www.ups.com/track?tracknum={code}',
  usps: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={code}',
}

/**
 * The carrier's page for this parcel, or null for a carrier without a known
 * page. The code is URL-encoded: it is checked as letters, digits and dashes
 * when the seller gives it, but a row written before that check, or by an
 * admin, must still not be able to change where the link goes.
 */
export function trackingPageUrl(carrier: string, trackingCode: string): string | null {
  const template = Object.hasOwn(trackingPageTemplates, carrier) ? trackingPageTemplates[carrier] : undefined
  return template ? template.replace('{code}', encodeURIComponent(trackingCode)) : null
}

/** The slugs that have a page (for the tests that keep the list honest). */
export const carriersWithTrackingPages: readonly string[] = Object.keys(trackingPageTemplates)
