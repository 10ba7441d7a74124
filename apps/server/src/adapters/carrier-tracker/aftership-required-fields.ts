import { countryAlpha3 } from './country-alpha3.ts'

/**
 * Some couriers answer only when told more than the tracking number: the
 * recipient's postal code, the ship date, the shipper's account… AfterShip
 * lists them per courier (`required_fields` in GET /couriers, values of the
 * SDK's `AdditionalFields`) and refuses a create without them (meta code
 * 4011). Pactum sends what it knows, and only what the courier asks for
 * (the buyer's address goes to AfterShip only when the carrier needs it):
 * the buyer's shipping address and the day the seller added the code.
 */
export interface ShipmentDestination {
  postalCode: string
  /** Lower-case ISO 3166-1 alpha-2. */
  countryCode: string
  state: string | null
}

export interface RequiredFieldValues {
  /** Fields to add to the create body, by AfterShip's name. */
  fields: Record<string, string>
  /** Fields the courier asks for that Pactum does not know (`tracking_account_number`, `tracking_key`, `origin_country_region`, …). */
  missing: string[]
}

/** AfterShip's format for a postal code: up to 10 letters, digits, `+`, `-` and spaces (additional-tracking-fields). */
const postalCodePattern = /^[A-Za-z0-9+ -]{1,10}$/

export function requiredFieldValues(
  required: readonly string[],
  known: { destination: ShipmentDestination | undefined; shippedAt: Date },
): RequiredFieldValues {
  const fields: Record<string, string> = {}
  const missing: string[] = []
  for (const name of required) {
    const value = valueOf(name, known)
    if (value === undefined) missing.push(name)
    else fields[name] = value
  }
  return { fields, missing }
}

function valueOf(name: string, { destination, shippedAt }: { destination: ShipmentDestination | undefined; shippedAt: Date }) {
  switch (name) {
    case 'destination_postal_code': {
      const code = destination?.postalCode.trim()
      return code && postalCodePattern.test(code) ? code : undefined
    }
    case 'destination_country_region':
      return destination ? countryAlpha3(destination.countryCode) : undefined
    case 'destination_state':
      return destination?.state?.trim() || undefined
    case 'tracking_ship_date':
      // The 2026-07 API takes YYYY-MM-DD (the SDK's CreateTrackingRequest); the day the seller added the code.
      return shippedAt.toISOString().slice(0, 10)
    default:
      return undefined
  }
}
